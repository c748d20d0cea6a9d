/**
 * Verdicts the stream (streamedText.ts) shares with the families: what follows a tag, and whether
 * a tag's line ends after it. A family's own openings are its module's (`markerVerdict`,
 * `openingVerdict`). 'wait' while the text stops before it can be told.
 */
import type { Verdict } from './types';

/** How far an opening may stay undecided before it is withheld to the end. */
export const DECIDED_WITHIN = 256;

/** What follows a call's tag: JSON, another tag, a quoted or bare name before its arguments. */
const CALL_AFTER_TAG = /^(?:[{[<"'｜]|[\w.:=-]+[ \t]*(?:[\n<>{["'(｜]|$))/;

/**
 * Whether a tag or special token opens a call: what follows it is a call's content, not words of
 * a sentence about it ("the tags wrap each call", "the token is Mistral's"). `ended`: the text is
 * whole, so nothing more comes.
 */
export function tagVerdict(after: string, ended: boolean): Verdict {
	const content = after.trimStart();
	if (!content) return ended ? 'call' : 'wait';
	if (CALL_AFTER_TAG.test(content)) return 'call';
	// a name not whole yet
	return !ended && /^[\w.:=-]+$/.test(content) && content.length < 64 ? 'wait' : 'not';
}

/** Whether a tag's line ends right after it (spaces aside): 'wait' while that is not known yet. */
export function endsLine(after: string): Verdict {
	if (/^[ \t]*\r?\n/.test(after)) return 'call';
	return /^[ \t]*\r?$/.test(after) ? 'wait' : 'not';
}
