/**
 * LangChain's XML agent: `<tool>add</tool><tool_input>…</tool_input>` (the closing tag often cut
 * by its stop word); `<final_answer>…</final_answer>` is the answer (LangChain `xml.py`).
 */
import type { CallFamily } from '../types';
import { tagVerdict } from './blocks';
import { patternCalls } from './patternCalls';

const read = patternCalls(
	/<tool>\s*([^<]+?)\s*<\/tool>\s*(?:<tool_input>([\s\S]*?)(?:<\/tool_input>|$))?/g,
);

/** The agent's own turns, which may come before its final answer in one reply. */
const TURN =
	/\s*(?:<tool>[^<]*<\/tool>|<tool_input>[\s\S]*?<\/tool_input>|<observation>[\s\S]*?<\/observation>)/y;
const FINAL = /\s*<final_answer>([\s\S]*?)(?:<\/final_answer>\s*$|$)/y;

/**
 * The answer where the reply is in the agent's format: `<final_answer>` at its start or after
 * the agent's own turns, never a tag quoted in a sentence or in code.
 */
function readFinal(text: string): string | undefined {
	// the turns passed over where they stand (sticky patterns): no copy of the rest per turn
	const turn = new RegExp(TURN.source, 'y');
	let from = 0;
	while (turn.exec(text)) from = turn.lastIndex;
	const final = new RegExp(FINAL.source, 'y');
	final.lastIndex = from;
	const found = final.exec(text);
	return found && (found[0].endsWith('</final_answer>') || !found[1].includes('</final_answer>'))
		? found[1].trim()
		: undefined;
}

export const xmlAgent: CallFamily = {
	name: 'xml-agent',
	markers: ['<tool>', '<final_answer>'],
	markersMeanACall: true,
	read,
	readFinal,
	// its final answer's tag opens no call, but is pending as one: the answer is read whole
	markerVerdict: (marker, text, _, ended) =>
		marker === '<final_answer>'
			? 'call'
			: tagVerdict(text.slice(marker.length, marker.length + 64), ended),
};
