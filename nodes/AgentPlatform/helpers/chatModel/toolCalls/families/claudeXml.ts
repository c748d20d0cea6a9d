/**
 * XML with named parameters: `<invoke name="add"><parameter name="a">2</parameter></invoke>`
 * inside `<function_calls>` (Claude-style), MiniMax's `<minimax:tool_call>`, Step-3's
 * `<steptml:invoke>`, or alone; the older `<invoke><tool_name>…`; a call list inside
 * `<function_calls>` (vLLM `minimax_m2_tool_parser.py`, `step3_tool_parser.py`).
 */
import type { CallFamily, WrittenCall } from '../types';
import { inBlocks } from './blocks';
import { callsMatched } from './patternCalls';
import { pythonCallsFrom } from './pythonic';
import { pairs } from './xmlPairs';

/** Step-3's section token: it opens the block its invokes stand in (vLLM's step3 parser). */
const STEP3_SECTION = '<｜tool_calls_begin｜>';
const MARKERS = [
	'<function_calls>',
	'<invoke',
	'<minimax:tool_call>',
	'<steptml:invoke',
	STEP3_SECTION,
];

const INVOKE =
	/<(?:\w+:)?invoke\s+name\s*=\s*["']([^"']+)["']\s*>([\s\S]*?)(?:<\/(?:\w+:)?invoke>|$)/g;
const PARAMETER =
	/<(?:\w+:)?parameter\s+name\s*=\s*(["'][^"']+["'])\s*>([\s\S]*?)<\/(?:\w+:)?parameter>/g;
const OLDER =
	/<invoke>\s*<tool_name>([^<]+)<\/tool_name>\s*(?:<parameters>([\s\S]*?)<\/parameters>)?/g;

/** What opens the invokes' block: the wrapper tags, Step-3's section and call tokens. */
const BLOCKS = [
	'<function_calls>',
	'<minimax:tool_call>',
	STEP3_SECTION,
	'<｜tool_call_begin｜>function<｜tool_sep｜>',
];

function readInvokes(text: string, at: number): WrittenCall[] {
	const named = callsMatched(text, at, INVOKE, (match) => ({
		name: match[1],
		arguments: pairs(match[2], PARAMETER),
		xml: true,
	}));
	const older = callsMatched(text, at, OLDER, (match) => ({
		name: match[1].trim(),
		arguments: pairs(match[2] ?? '', /<([\w-]+)>([\s\S]*?)<\/\1>/g),
		xml: true,
	}));
	const calls = [...named, ...older].sort((a, b) => a.start - b.start);
	if (calls.length) return calls;
	const list = text.indexOf('<function_calls>', at);
	return list < 0 ? [] : pythonCallsFrom(text, list + '<function_calls>'.length);
}

export const claudeXml: CallFamily = {
	name: 'claude-xml',
	models: /claude|minimax|step-?3/i,
	markers: MARKERS,
	markersMeanACall: true,
	read: inBlocks(BLOCKS, readInvokes),
	// MiniMax-M2: the prompt opens the reasoning (vLLM's minimax_m2_append_think)
	reasoning: {
		tags: [
			['<think>', '</think>'],
			['<thinking>', '</thinking>'],
		],
		openedInPrompt: /minimax[-_. ]?m2/i,
	},
};
