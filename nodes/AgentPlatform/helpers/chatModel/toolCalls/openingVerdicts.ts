/**
 * What the stream (streamedText.ts) shares with the families: how far an opening may stay
 * undecided, and whether a tag's line ends after it. A family's own openings are its module's
 * (`markerVerdict`, `openingVerdict`; a tag's by default, families/blocks.ts). 'undecided' while the
 * text stops before it can be told.
 */
import type { Verdict } from './types';

/** How far an opening may stay undecided before it is pending to the end. */
export const DECIDED_WITHIN = 256;

/** Whether a tag's line ends right after it (spaces aside): 'undecided' while that is not known yet. */
export function endsLine(after: string): Verdict {
	if (/^[ \t]*\r?\n/.test(after)) return 'call';
	return /^[ \t]*\r?$/.test(after) ? 'undecided' : 'text';
}
