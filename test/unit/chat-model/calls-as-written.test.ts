/**
 * Recall beside the ordinary answers (reader2's): calls of bound tools as models write them, with
 * the one-line preamble a family writes (on its own line or on the call's line), and a whole
 * answer that is one fenced JSON block holding only a call. Read whole as the calls; streamed
 * (streamProperty.ts), what the chat was shown is only ever the start of the preamble.
 */
import { readToolsAnswer } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { TOOL_SETS, type ToolSet } from './ordinary-answers.tools';
import { streamProblems } from './streamProperty';
import type { Call } from './toolCallCorpus';

const WEATHER: Call = { name: 'get_weather', arguments: { city: 'Paris' } };
const DOCS: Call = { name: 'search_docs', arguments: { query: 'rate limits', limit: 5 } };
const TICKET: Call = { name: 'create_ticket', arguments: { title: 'VPN drops', priority: 'high' } };
const ADD: Call = { name: 'add', arguments: { a: 2, b: 3 } };
const LOOKUP: Call = { name: 'lookup', arguments: { input: 'otter' } };

/** [about, tool set, reply, the prose before the calls, the calls] */
const CASES: Array<[string, ToolSet, string, string, Call[]]> = [
	[
		'Hermes after a preamble on the same line',
		'weather',
		`I'll look that up. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`,
		"I'll look that up.",
		[WEATHER],
	],
	[
		'Hermes after a preamble line, the JSON on its own lines',
		'weather',
		`Let me check the docs.\n<tool_call>\n{"name": "search_docs", "arguments": {"query": "rate limits", "limit": 5}}\n</tool_call>`,
		'Let me check the docs.',
		[DOCS],
	],
	[
		// written by hand: an editor's deep indentation (tabs counted as spaces) between the brace
		// and the asked key, so the key is whole only after the first 32 characters
		'the asked object pretty-printed with deep indentation after its brace',
		'weather',
		`Checking Paris.\n{\n${' '.repeat(24)}"tool_call": {"name": "get_weather", "arguments": {"city": "Paris"}}\n}`,
		'Checking Paris.',
		[WEATHER],
	],
	[
		'a whole-answer json fence with a call of a bound tool',
		'weather',
		'```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```',
		'',
		[WEATHER],
	],
	[
		'a whole-answer plain fence with a call of a bound tool',
		'mail',
		'```\n{"name": "create_ticket", "arguments": {"title": "VPN drops", "priority": "high"}}\n```',
		'',
		[TICKET],
	],
	[
		'a whole-answer json fence with the asked tool_call shape',
		'math',
		'```json\n{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}\n```',
		'',
		[ADD],
	],
	[
		'Mistral after a preamble',
		'weather',
		`Checking the weather now.\n[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]`,
		'Checking the weather now.',
		[WEATHER],
	],
	[
		'Mistral v11 with ARGS',
		'mail',
		`[TOOL_CALLS]create_ticket[ARGS]{"title": "VPN drops", "priority": "high"}`,
		'',
		[TICKET],
	],
	[
		'Llama 3 python_tag',
		'math',
		`<|python_tag|>{"name": "lookup", "parameters": {"input": "otter"}}`,
		'',
		[LOOKUP],
	],
	[
		'Phi-4 functools at the start',
		'math',
		`functools[{"name": "add", "arguments": {"a": 2, "b": 3}}]`,
		'',
		[ADD],
	],
	[
		'a pythonic call list after a preamble',
		'math',
		`Let me add them.\n[add(a=2, b=3)]`,
		'Let me add them.',
		[ADD],
	],
	[
		'ReAct with a thought',
		'math',
		`Thought: I should look the word up.\nAction: lookup\nAction Input: otter`,
		'Thought: I should look the word up.',
		[LOOKUP],
	],
	[
		'ReAct with an observation the model went on to write',
		'math',
		`Action: lookup\nAction Input: otter\nObservation: a mammal`,
		'',
		[LOOKUP],
	],
	[
		'XML agent tool turn',
		'math',
		`<tool>lookup</tool><tool_input>otter</tool_input>`,
		'',
		[LOOKUP],
	],
	[
		'Claude invoke after a preamble',
		'weather',
		`I'll check.\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>`,
		"I'll check.",
		[WEATHER],
	],
	[
		'bare JSON after a short preamble',
		'weather',
		`Sure, let me check.\n{"name": "get_weather", "arguments": {"city": "Paris"}}`,
		'Sure, let me check.',
		[WEATHER],
	],
];

/** [about, reply, the answer]: a family's own final answer, at its start or after its turns. */
const FINALS: Array<[string, string, string]> = [
	['XML agent final answer', '<final_answer>It is 5.</final_answer>', 'It is 5.'],
	[
		'XML agent final answer after its own turns',
		'<tool>lookup</tool><tool_input>otter</tool_input>\n<observation>a mammal</observation>\n<final_answer>An otter is a mammal.</final_answer>',
		'An otter is a mammal.',
	],
	[
		'XML agent final answer cut by the token limit',
		'<final_answer>An otter is a semi-aquatic',
		'An otter is a semi-aquatic',
	],
];

describe('calls as models write them, beside the ordinary answers', () => {
	it.each(FINALS)('%s: the answer inside the tag', (_, reply, text) => {
		expect(readToolsAnswer(reply, TOOL_SETS.math)).toEqual({ kind: 'final', text });
	});

	it.each(CASES)('%s: read whole as the calls', (_, set, reply, prose, calls) => {
		expect(readToolsAnswer(reply, TOOL_SETS[set])).toEqual({ kind: 'calls', prose, calls });
	});

	it('streamed a character at a time and in random chunks: only the preamble shown, all of it', () => {
		const cases = CASES.map(([name, set, reply]) => ({ name, reply, tools: TOOL_SETS[set] }));
		expect(streamProblems(cases)).toEqual([]);
	});
});
