/**
 * JSON calls inside the tags and tokens of smaller families: Granite's `<|tool_call|>[…]`,
 * Nemotron's `<TOOLCALL>[…]</TOOLCALL>`, Phi-4-mini's `functools[…]`, InternLM2's
 * `<|plugin|>{…}`, and `<tool_calls>[…]`, `<function_call>{…}` (vLLM `granite_tool_parser.py`,
 * `phi4mini_tool_parser.py`, `internlm2_tool_parser.py`).
 */
import type { CallFamily, Verdict } from '../types';
import { inBlocks, tagVerdict, TOKEN_END } from './blocks';
import { markedJsonCalls } from './markedJson';

const MARKERS = [
	'<|tool_call|>',
	'<TOOLCALL>',
	'functools',
	'<|plugin|>',
	'<tool_calls>',
	'<function_call>',
];

/** Phi-4's `functools`, a word, wraps a call only where JSON follows it at once. */
function markerVerdict(marker: string, text: string, _: boolean, ended: boolean): Verdict {
	const after = text.slice(marker.length, marker.length + 64);
	if (marker !== 'functools') return tagVerdict(after, ended);
	if (/^[{[]/.test(after)) return 'call';
	return !after && !ended ? 'undecided' : 'text';
}

export const jsonTags: CallFamily = {
	name: 'json-tags',
	models: /granite|nemotron|phi-?4|internlm/i,
	markers: MARKERS,
	markersMeanACall: true,
	// InternLM2 opens its plugin's block with an action token
	read: inBlocks(['<|action_start|>'], markedJsonCalls(MARKERS)),
	markerVerdict,
	tokenEnds: [TOKEN_END],
};
