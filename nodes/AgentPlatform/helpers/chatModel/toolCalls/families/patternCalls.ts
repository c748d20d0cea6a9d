/**
 * Calls matched by one pattern whose first group is the name and second the arguments as written
 * (harmony, Kimi, the XML agent): every match from `at` on, arguments trimmed.
 */
import type { WrittenCall } from '../types';

export function patternCalls(pattern: RegExp) {
	return (text: string, at: number): WrittenCall[] =>
		[...text.slice(at).matchAll(pattern)].map((match) => ({
			start: at + match.index,
			end: at + match.index + match[0].length,
			name: match[1],
			arguments: (match[2] ?? '').trim(),
		}));
}
