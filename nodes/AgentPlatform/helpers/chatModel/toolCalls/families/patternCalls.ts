/**
 * Calls matched by a family's pattern (harmony, Kimi, GLM, Qwen3-Coder, DeepSeek, Claude's XML,
 * the XML agent): every match from `at` on, read in the text itself (no copy of its rest), each
 * turned into a written call where the match is one.
 */
import type { WrittenCall } from '../types';

/** Each match of `pattern` (global) in `text` from `at` on. */
export function* matchesFrom(text: string, at: number, pattern: RegExp) {
	const search = new RegExp(
		pattern.source,
		pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
	);
	search.lastIndex = at;
	for (let match = search.exec(text); match; match = search.exec(text)) {
		yield match;
		if (!match[0]) search.lastIndex++;
	}
}

/** The calls of each match: `call` gives the name and arguments as written, or nothing. */
export function callsMatched(
	text: string,
	at: number,
	pattern: RegExp,
	call: (match: RegExpExecArray) => Omit<WrittenCall, 'start' | 'end'> | undefined,
): WrittenCall[] {
	const calls: WrittenCall[] = [];
	for (const match of matchesFrom(text, at, pattern)) {
		const read = call(match);
		if (read) calls.push({ ...read, start: match.index, end: match.index + match[0].length });
	}
	return calls;
}

/** Calls whose pattern's first group is the name and second the arguments, trimmed. */
export function patternCalls(pattern: RegExp) {
	return (text: string, at: number): WrittenCall[] =>
		callsMatched(text, at, pattern, (match) => ({
			name: match[1],
			arguments: (match[2] ?? '').trim(),
		}));
}
