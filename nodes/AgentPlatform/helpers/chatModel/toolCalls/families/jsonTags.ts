/**
 * JSON calls inside the tags and tokens of smaller families: Granite's `<|tool_call|>[…]`,
 * Nemotron's `<TOOLCALL>[…]</TOOLCALL>`, Phi-4-mini's `functools[…]`, InternLM2's
 * `<|plugin|>{…}`, and `<tool_calls>[…]`, `<function_call>{…}` (vLLM `granite_tool_parser.py`,
 * `phi4mini_tool_parser.py`, `internlm2_tool_parser.py`).
 */
import type { CallFamily } from '../types';
import { markedJsonCalls } from './markedJson';
import { each, json, named } from './writing';

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
	writers: {
		granite: (calls) => `<|tool_call|>${json(calls.map(named))}`,
		nemotron: (calls) => `<TOOLCALL>${json(calls.map(named))}</TOOLCALL>`,
		phi4: (calls) => `functools${json(calls.map(named))}`,
		'tool-calls-tag': (calls) => `<tool_calls>${json(calls.map(named))}</tool_calls>`,
		'function-call-tag': each((c) => `<function_call>${json(named(c))}</function_call>`),
	},
};
