/**
 * The reader's edges (toolCalls/): the JSON mistakes models make and namespaced names, read as
 * calls; answers that must stay answers word for word (JSON that is no call, code in a sentence,
 * "Final Answer"); reasoning taken out of answers, a call quoted in it not run; calls that cannot
 * be used named for the one correction round. Streamed, answers are all shown, reasoning never.
 */
import {
	readToolsAnswer,
	StreamedText,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { ADD, LOOKUP, TOOLS } from './toolCallCorpus';

/** [case, reply, the calls read] */
const MISTAKES: Array<[string, string, object[]]> = [
	['a trailing comma', '{"name": "add", "arguments": {"a": 2, "b": 3,},}', [ADD]],
	['a Python dict in single quotes', "{'name': 'add', 'arguments': {'a': 2, 'b': 3}}", [ADD]],
	[
		'single quotes around an apostrophe in double quotes',
		`{'name': 'lookup', 'arguments': {'input': "what's an otter"}}`,
		[{ name: 'lookup', arguments: { input: "what's an otter" } }],
	],
	[
		'True, False and None',
		'{"tool_call": {"name": "lookup", "arguments": {"input": "otter", "exact": True, "limit": None}}}',
		[{ name: 'lookup', arguments: { input: 'otter', exact: true, limit: null } }],
	],
	['a missing last brace', '{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}', [ADD]],
	['bare keys', '{name: "add", arguments: {a: 2, b: 3}}', [ADD]],
	[
		'a raw line break in a string',
		'{"name": "lookup", "arguments": {"input": "river\notter"}}',
		[{ name: 'lookup', arguments: { input: 'river\notter' } }],
	],
	[
		'arguments encoded twice',
		JSON.stringify({ name: 'add', arguments: JSON.stringify(JSON.stringify(ADD.arguments)) }),
		[ADD],
	],
	[
		'OpenAI namespace functions.add',
		'{"name": "functions.add", "arguments": {"a": 2, "b": 3}}',
		[ADD],
	],
	['Gemini namespace default_api.add', '[default_api.add(a=2, b=3)]', [ADD]],
	[
		'numbers written as text, in XML',
		'<invoke name="add"><parameter name="a">2</parameter><parameter name="b">3</parameter></invoke>',
		[ADD],
	],
	['a ReAct input in plain words', 'Action: lookup\nAction Input: otter', [LOOKUP]],
	['a one-field tool given its value alone', '{"name": "lookup", "arguments": "otter"}', [LOOKUP]],
	[
		'a pythonic call with a dict and a list',
		"[lookup(input='otter', extra={'deep': [1, True]})]",
		[{ name: 'lookup', arguments: { input: 'otter', extra: { deep: [1, true] } } }],
	],
	['a call left open by a stop word', '<tool>lookup</tool><tool_input>otter', [LOOKUP]],
	['Llama 3.1 <function=…> with JSON', '<function=add>{"a": 2, "b": 3}</function>', [ADD]],
	['Gemini tool code', '```tool_code\nprint(default_api.add(a=2, b=3))\n```', [ADD]],
	['Mistral [CALL_ID]', '[TOOL_CALLS]add[CALL_ID]a1B2c3D4e[ARGS]{"a": 2, "b": 3}', [ADD]],
	[
		'Step-3 namespaced XML',
		'<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="add"><steptml:parameter name="a">2</steptml:parameter><steptml:parameter name="b">3</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
		[ADD],
	],
	[
		'Cohere Action: with a fenced list',
		'Action: ```json\n[{"tool_name": "add", "parameters": {"a": 2, "b": 3}}]\n```',
		[ADD],
	],
	[
		'InternLM2 plugin tokens',
		'<|action_start|><|plugin|>\n{"name": "add", "parameters": {"a": 2, "b": 3}}<|action_end|>',
		[ADD],
	],
	[
		"OpenAI Responses' function_call item",
		JSON.stringify({
			type: 'function_call',
			call_id: 'c1',
			name: 'add',
			arguments: '{"a":2,"b":3}',
		}),
		[ADD],
	],
	[
		"OpenAI's whole response echoed",
		JSON.stringify({
			choices: [
				{
					message: {
						role: 'assistant',
						tool_calls: [
							{ type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
						],
					},
				},
			],
		}),
		[ADD],
	],
	[
		"Anthropic's message with a text block",
		JSON.stringify({
			role: 'assistant',
			content: [
				{ type: 'text', text: 'Let me add.' },
				{ type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 2, b: 3 } },
			],
		}),
		[ADD],
	],
	[
		'an empty think before a Hermes call',
		'<think>\n\n</think>\n\n<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": 3}}\n</tool_call>',
		[ADD],
	],
	[
		'a <tool_call> tag left open',
		'<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": 3}}',
		[ADD],
	],
];

/** Replies that are the answer, word for word. */
const ANSWERS: string[] = [
	'Your order ships tomorrow.',
	'{"city": "Lisbon", "population": 545000}',
	'{"name": "Alice", "age": 31}',
	'[{"name": "Alice", "role": "admin"}, {"name": "Bob", "role": "user"}]',
	'```json\n{"name": "my-package", "version": "1.0.0", "scripts": {"test": "jest"}}\n```',
	'{"Answer": "yes"}',
	'The sum is 5: in code, `add(2, 3)` returns it.',
	'Call add(2, 3) to get 5.',
	'Use {name} in the template, see [the docs](https://example.com).',
	'Thought: I know it now.\nFinal Answer: 5',
	"It's 5, isn't it? ['a', 'b'] are the letters.",
	'{"name": "add", "description": "Adds two numbers", "parameters": {"type": "object"}}',
	'The tool_call key is how you ask for a tool.',
	'[{"name": "build", "arguments": "--prod"}, {"name": "test", "arguments": "--ci"}]',
	'The answer is [1, 2, 3] and {name} fills the template.',
	'{"action": "buy", "quantity": 3}',
	'{"function": "sum", "input": [1, 2]}',
];

/** [case, reply, the answer it is] */
const FINALS: Array<[string, string, string]> = [
	[
		'reasoning, then the answer',
		'<think>The user greets me.</think>\n\nHello! How can I help?',
		'Hello! How can I help?',
	],
	['only the closing tag', 'The user greets me.\n</think>\n\nHello!', 'Hello!'],
	['Seed-OSS', '<seed:think>Greeting.</seed:think>Hello!', 'Hello!'],
	[
		'harmony',
		'<|channel|>analysis<|message|>Greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>',
		'Hello!',
	],
	[
		'a call quoted inside reasoning',
		'<think>I could answer {"name": "add", "arguments": {"a": 2, "b": 3}} but no.</think>It is 5.',
		'It is 5.',
	],
	[
		'LangChain JSON agent finishing',
		'```json\n{"action": "Final Answer", "action_input": "It is 5."}\n```',
		'It is 5.',
	],
	['LangChain XML agent finishing', '<final_answer>It is 5.</final_answer>', 'It is 5.'],
];

/** Replies meant as a call that cannot be used: one correction round. */
const UNUSABLE: Array<[string, string, RegExp]> = [
	[
		'an unknown tool, asked shape',
		'{"tool_call": {"name": "refund", "arguments": {}}}',
		/there is no tool "refund"/,
	],
	[
		'an unknown tool, Hermes',
		'<tool_call>{"name": "refund", "arguments": {"id": 1}}</tool_call>',
		/there is no tool "refund"/,
	],
	['an unknown tool, pythonic', '[refund(id=1)]', /there is no tool "refund"/],
	[
		'an unknown tool, XML',
		'<invoke name="refund"><parameter name="id">1</parameter></invoke>',
		/there is no tool "refund"/,
	],
	['broken JSON', '{"tool_call": {"name": "add", "arguments": {"a": 2,', /not valid JSON/],
	['an empty Hermes tag', '<tool_call></tool_call>', /holds no readable one/],
	[
		'wrong arguments',
		'<function=add><parameter=a>two</parameter></function>',
		/do not match its schema/,
	],
];

describe('tool call reader: mistakes, answers, reasoning', () => {
	it.each(MISTAKES)('reads %s', (_, reply, calls) => {
		expect(readToolsAnswer(reply, TOOLS)).toMatchObject({ kind: 'calls', calls });
	});

	it.each(ANSWERS.map((a) => [a]))('keeps %j as the answer', (reply) => {
		expect(readToolsAnswer(reply, TOOLS)).toEqual({ kind: 'final', text: reply });
	});

	it.each(FINALS)('answers with %s', (_, reply, text) => {
		const answer = readToolsAnswer(reply, TOOLS);
		expect(answer).toMatchObject({ kind: 'final', text });
	});

	it('keeps the reasoning beside the answer, not in it', () => {
		const answer = readToolsAnswer('<think>The user greets me.</think>Hello!', TOOLS);
		expect(answer).toEqual({ kind: 'final', text: 'Hello!', reasoning: 'The user greets me.' });
	});

	it.each(UNUSABLE)('names what is wrong with %s', (_, reply, problem) => {
		const answer = readToolsAnswer(reply, TOOLS);
		expect(answer.kind).toBe('malformed');
		expect(answer.kind === 'malformed' && answer.problem).toMatch(problem);
	});

	it.each(ANSWERS.map((a) => [a]))(
		'streamed, %j: what was shown and the pending text given at the end are the answer',
		(reply) => {
			for (let cut = 1; cut < reply.length; cut++) {
				const streamed = new StreamedText(TOOLS);
				const shown = streamed.push(reply.slice(0, cut)) + streamed.push(reply.slice(cut));
				expect(reply.startsWith(shown)).toBe(true);
				expect(shown + streamed.pending()).toBe(reply);
			}
		},
	);

	it('streamed: prose with no opening is shown whole before the end', () => {
		const streamed = new StreamedText();
		const shown = ['Your order ', 'ships ', 'tomorrow.'].map((p) => streamed.push(p)).join('');
		expect(shown).toBe('Your order ships tomorrow.');
	});

	it.each(FINALS.filter(([name]) => name !== 'only the closing tag'))(
		'streamed, %s: the reasoning never shown, the answer after it shown as it comes',
		(_, reply, text) => {
			for (let cut = 1; cut < reply.length; cut++) {
				const streamed = new StreamedText();
				const shown = streamed.push(reply.slice(0, cut)) + streamed.push(reply.slice(cut));
				expect(text.startsWith(shown)).toBe(true);
			}
		},
	);

	it('streamed: brackets and braces of prose do not stop the stream', () => {
		const streamed = new StreamedText();
		const pieces = ['The answer is [', '1, 2, 3] and {', 'name} fills', ' the template.'];
		const shown = pieces.map((p) => streamed.push(p)).join('');
		expect(shown).toBe('The answer is [1, 2, 3] and {name} fills the template.');
	});

	it('streamed inside reasoning opened in the prompt: nothing until </think>', () => {
		const streamed = new StreamedText(true, '</think>');
		const pieces = ['The user wants ', 'a sum.</th', 'ink>\n\nThe sum', ' is 5.'];
		expect(pieces.map((p) => streamed.push(p)).join('')).toBe('The sum is 5.');
	});

	it('streamed with no tools bound: JSON answers flow, reasoning is skipped', () => {
		const streamed = new StreamedText(false);
		const shown = ['<think>Hm', 'm.</thi', 'nk>\n{"a": ', '1}']
			.map((p) => streamed.push(p))
			.join('');
		expect(shown).toBe('{"a": 1}');
	});

	it('a long answer in many pieces is shown as it comes, all of it (its time: npm run bench)', () => {
		const streamed = new StreamedText(TOOLS);
		let shown = '';
		for (let i = 0; i < 20_000; i++) shown += streamed.push('word ');
		expect(shown).toBe('word '.repeat(20_000).trimEnd());
	});
});
