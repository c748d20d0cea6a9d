/**
 * LangChain's XML agent: `<tool>add</tool><tool_input>…</tool_input>` (the closing tag often cut
 * by its stop word); `<final_answer>…</final_answer>` is the answer (LangChain `xml.py`).
 */
import type { CallFamily, WrittenCall } from '../types';
import { argumentsJson, each } from './writing';

function read(text: string, at: number): WrittenCall[] {
	const pattern = /<tool>\s*([^<]+?)\s*<\/tool>\s*(?:<tool_input>([\s\S]*?)(?:<\/tool_input>|$))?/g;
	return [...text.slice(at).matchAll(pattern)].map((match) => ({
		start: at + match.index,
		end: at + match.index + match[0].length,
		name: match[1],
		arguments: (match[2] ?? '').trim(),
	}));
}

export const xmlAgent: CallFamily = {
	name: 'xml-agent',
	markers: ['<tool>', '<final_answer>'],
	markersMeanACall: true,
	read,
	readFinal: (text) => /<final_answer>([\s\S]*?)(?:<\/final_answer>|$)/.exec(text)?.[1].trim(),
	writers: {
		'xml-agent': each((c) => `<tool>${c.name}</tool><tool_input>${argumentsJson(c)}</tool_input>`),
	},
	finalWriters: { 'xml-agent': (answer) => `<final_answer>${answer}</final_answer>` },
};
