/**
 * JSON calls inside the tags and tokens of smaller families: Granite's `<|tool_call|>[…]`,
 * Nemotron's `<TOOLCALL>[…]</TOOLCALL>`, Phi-4-mini's `functools[…]`, InternLM2's
 * `<|plugin|>{…}`, and `<tool_calls>[…]`, `<function_call>{…}` (vLLM `granite_tool_parser.py`,
 * `phi4mini_tool_parser.py`, `internlm2_tool_parser.py`).
 */
import type { CallFamily } from '../types';
import { markedJsonCalls } from './markedJson';

const MARKERS = [
	'<|tool_call|>',
	'<TOOLCALL>',
	'functools',
	'<|plugin|>',
	'<tool_calls>',
	'<function_call>',
];

export const jsonTags: CallFamily = {
	name: 'json-tags',
	models: /granite|nemotron|phi-?4|internlm/i,
	markers: MARKERS,
	markersMeanACall: true,
	read: markedJsonCalls(MARKERS),
};
