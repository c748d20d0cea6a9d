/**
 * ReAct's `Action: <tool>` followed by `Action Input: <arguments>` (LangChain's
 * react_single_input parser); `Final Answer:` is an answer. The input is a JSON value (fenced or
 * not) or, for a one-field tool, the text on its line; what follows it is prose. The structured
 * chat agent's `Action:` with fenced JSON is read as JSON (jsonCalls.ts).
 */
import { parseLoose } from './looseJson';
import type { WrittenCall } from './types';

const REACT =
	/^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*`?([^\n`{[]+?)`?[ \t]*\r?\n[ \t]*Action[ \t]*\d*[ \t]+Input[ \t]*\d*[ \t]*:[ \t]*(?:```[\w-]*\s*)?/gim;

export function reactCalls(text: string): WrittenCall[] {
	if (!/Action/i.test(text)) return [];
	return [...text.matchAll(REACT)].map((match) => {
		const at = match.index + match[0].length;
		const parsed = /[{["]/.test(text[at] ?? '') ? parseLoose(text, at) : undefined;
		const line = /^[^\n]*/.exec(text.slice(at))![0];
		const end = parsed ? parsed.end : at + line.length;
		const fence = /^\s*```/.exec(text.slice(end))?.[0].length ?? 0;
		return {
			start: match.index,
			end: end + fence,
			name: match[1].trim(),
			arguments: parsed ? parsed.value : line.trim(),
		};
	});
}
