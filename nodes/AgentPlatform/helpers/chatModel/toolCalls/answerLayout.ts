/**
 * Where in an answer a call can stand (docs/chat-model.md, "Tool calls read"): code blocks and
 * inline code are code; a call without a marker opens the answer, or follows the few lines of
 * prose a family writes before a call; after calls, only a short closing sentence. Shared by the
 * whole reading (index.ts) and the stream (streamedText.ts), so that both draw the same lines.
 */
import { hasFenceRun } from '../../output/codeFences';
import { CLOSING_MARKUP } from './families/blocks';

/** The prose a family writes before a call: a sentence or two, no code. */
export const LEAD_IN_CHARS = 400;
export const LEAD_IN_LINES = 3;
/** Prose after a call written without a marker: a closing sentence, no code. */
export const CLOSING_CHARS = 300;

/** Whether `at` is the first thing on its line (spaces aside). */
export function atLineStart(text: string, at: number): boolean {
	for (let i = at - 1; i >= 0; i--) {
		if (text[i] === '\n') return true;
		if (text[i] !== ' ' && text[i] !== '\t') return false;
	}
	return true;
}

/**
 * Whether no word follows `end` on its line, closing tags and tokens aside (a sentence does not go
 * on after a call it holds).
 */
export function endsItsLine(text: string, end: number): boolean {
	const lineEnd = text.indexOf('\n', end);
	const rest = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
	return !/[\p{L}\p{N}]/u.test(rest.replace(CLOSING_MARKUP, ''));
}

/** Whether the text before a call is the prose a family writes before one. */
export function isLeadIn(prose: string): boolean {
	const trimmed = prose.trim();
	if (!trimmed) return true;
	if (trimmed.length > LEAD_IN_CHARS || hasFenceRun(trimmed)) return false;
	return trimmed.split('\n').filter((line) => line.trim()).length <= LEAD_IN_LINES;
}

/** Whether the text after calls written without a marker is a closing sentence. */
export function isClosing(prose: string): boolean {
	const trimmed = prose.trim();
	return trimmed.length <= CLOSING_CHARS && !hasFenceRun(trimmed) && !/^[{[]/.test(trimmed);
}
