/**
 * ReAct's `Action: <tool>` and `Action Input: <arguments>` (LangChain `react_single_input.py`): the
 * input a JSON value (fenced or not) or, for a one-field tool, the text on its line; LangChain's
 * structured chat and Cohere's `Action:` with fenced JSON. `Final Answer:` is an answer. `Action:`
 * is a word prose writes too (meeting notes), so nothing readable after it is prose.
 */
import { callsOf, jsonAt } from '../jsonShapes';
import { parseLoose } from '../looseJson';
import type { BoundTool, CallFamily, WrittenCall } from '../types';

const REACT =
	/^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*`?([^\n`{[]+?)`?[ \t]*\r?\n[ \t]*Action[ \t]*\d*[ \t]+Input[ \t]*\d*[ \t]*:[ \t]*(?:```[\w-]*\s*)?/gim;
const STRUCTURED = /^[ \t]*Action[ \t]*:[ \t]*(?=\s*(?:```|[{[]))/gim;

function read(text: string, at: number, tools: BoundTool[]): WrittenCall[] {
	const region = text.slice(at);
	const calls: WrittenCall[] = [...region.matchAll(REACT)].map((match) => {
		const from = at + match.index + match[0].length;
		const parsed = /[{["]/.test(text[from] ?? '') ? parseLoose(text, from) : undefined;
		const line = /^[^\n]*/.exec(text.slice(from, from + 4096))![0];
		const end = parsed ? parsed.end : from + line.length;
		const fence = /^\s*```/.exec(text.slice(end, end + 16))?.[0].length ?? 0;
		return {
			start: at + match.index,
			end: end + fence,
			name: match[1].trim(),
			arguments: parsed ? parsed.value : line.trim(),
		};
	});
	for (const match of region.matchAll(STRUCTURED)) {
		const value = jsonAt(text, at + match.index + match[0].length);
		const found = value && callsOf(value.value, tools, true);
		if (value && found)
			calls.push(...found.map((call) => ({ ...call, start: at + match.index, end: value.end })));
	}
	return calls.sort((a, b) => a.start - b.start);
}

export const react: CallFamily = {
	name: 'react',
	markers: ['Action:'],
	markersMeanACall: false,
	read,
};
