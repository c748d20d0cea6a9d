/**
 * The chat model's reader of tool calls (helpers/chatModel/toolCallReader.ts): a table of replies
 * as models write them, each read whole and streamed in pieces split at awkward places (inside a
 * fence, a tag, a key, an escape), where no piece of a call may be shown as text.
 */
import {
	readToolsAnswer,
	StreamedText,
	type BoundTool,
	type ToolsAnswer,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

const TOOLS: BoundTool[] = [
	{
		name: 'add',
		description: 'Adds two numbers',
		schema: {
			type: 'object',
			properties: { a: { type: 'number' }, b: { type: 'number' } },
			required: ['a', 'b'],
		},
	},
	{
		name: 'lookup',
		description: 'Looks a word up (a Code tool: one string)',
		schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
	},
];

const ADD = { name: 'add', arguments: { a: 2, b: 3 } };
const LOOKUP = { name: 'lookup', arguments: { input: 'otter' } };
const calls = (prose: string, ...found: object[]): ToolsAnswer => ({
	kind: 'calls',
	prose,
	calls: found as never,
});

/** [case, reply as a model writes it, what it is read as] */
const CALLS: Array<[string, string, ToolsAnswer]> = [
	[
		'the asked shape',
		'{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}',
		calls('', ADD),
	],
	[
		'the asked shape, fenced, prose before',
		'I\'ll use the add tool to compute this.\n```json\n{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}\n```',
		calls("I'll use the add tool to compute this.", ADD),
	],
	[
		'the asked shape, prose after',
		'{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}\nI will wait for the result.',
		calls('', LOOKUP),
	],
	[
		'arguments as a JSON string (OpenAI)',
		'{"name": "add", "arguments": "{\\"a\\": 2, \\"b\\": 3}"}',
		calls('', ADD),
	],
	['parameters (Llama 3.x)', '{"name": "add", "parameters": {"a": 2, "b": 3}}', calls('', ADD)],
	[
		'<tool_call> tags (Hermes, Qwen)',
		'<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>',
		calls('', LOOKUP),
	],
	['bare name and arguments', '{"name": "add", "arguments": {"a": 2, "b": 3}}', calls('', ADD)],
	[
		'plural tool_calls',
		'{"tool_calls": [{"name": "add", "arguments": {"a": 2, "b": 3}}]}',
		calls('', ADD),
	],
	[
		'OpenAI function object',
		'{"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\\"a\\":2,\\"b\\":3}"}}',
		calls('', ADD),
	],
	[
		'ReAct Action / Action Input',
		'Thought: I need to add the numbers.\nAction: add\nAction Input: {"a": 2, "b": 3}',
		calls('Thought: I need to add the numbers.', ADD),
	],
	['ReAct with a plain input', 'Action: lookup\nAction Input: otter', calls('', LOOKUP)],
	[
		'a tool name in another letter case',
		'{"tool_call": {"name": "Add", "arguments": {"a": 2, "b": 3}}}',
		calls('', ADD),
	],
	[
		'arguments coerced to the schema',
		'{"tool_call": {"name": "add", "arguments": {"a": "2", "b": "3"}}}',
		calls('', ADD),
	],
	[
		'two objects',
		'{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}\n{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}',
		calls('', ADD, LOOKUP),
	],
	[
		'an array',
		'[{"name": "add", "arguments": {"a": 2, "b": 3}}, {"name": "lookup", "arguments": {"input": "otter"}}]',
		calls('', ADD, LOOKUP),
	],
	[
		'tool_calls with two',
		'{"tool_calls": [{"type": "function", "function": {"name": "add", "arguments": {"a": 2, "b": 3}}}, {"type": "function", "function": {"name": "lookup", "arguments": {"input": "otter"}}}]}',
		calls('', ADD, LOOKUP),
	],
	[
		'two fenced blocks with prose',
		'First the sum:\n```json\n{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}\n```\nThen the word:\n```json\n{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}\n```',
		calls('First the sum:', ADD, LOOKUP),
	],
];

/** Replies that stay the final answer, word for word. */
const ANSWERS: Array<[string, string]> = [
	['prose', 'Your order ships tomorrow.'],
	['JSON that is no call (a chain asked for JSON)', '{"city": "Lisbon", "population": 545000}'],
	['JSON with a name field', '{"name": "Alice", "age": 31}'],
	['a fenced answer in JSON', '```json\n{"summary": "An otter is a river animal."}\n```'],
	[
		'prose with braces and a link',
		'Use {name} in the template, see [the docs](https://example.com).',
	],
	['a ReAct final answer', 'Thought: I know it now.\nFinal Answer: 5'],
];

/** Replies meant as a call that cannot be used: one correction round. */
const UNUSABLE: Array<[string, string, RegExp]> = [
	['broken JSON', '{"tool_call": {"name": "add", "arguments": {"a": 2,', /not valid JSON/],
	[
		'an unknown tool',
		'{"tool_call": {"name": "refund", "arguments": {}}}',
		/there is no tool "refund"; the tools are "add", "lookup"/,
	],
	[
		'wrong arguments',
		'{"tool_call": {"name": "add", "arguments": {"a": "two"}}}',
		/the arguments of "add" do not match its schema/,
	],
	[
		'arguments that are no object',
		'{"tool_call": {"name": "add", "arguments": [2, 3]}}',
		/the arguments of "add" must be a JSON object/,
	],
	[
		'an unknown tool among two',
		'{"name": "add", "arguments": {"a": 2, "b": 3}}\n{"name": "refund", "arguments": {}}',
		/there is no tool "refund"/,
	],
	[
		'a call by name alone, its argument missing',
		'{"tool_call": "lookup"}',
		/the arguments of "lookup" do not match its schema/,
	],
	['an empty tag', '<tool_call></tool_call>', /names a tool call but holds no readable one/],
];

/** The reply streamed in pieces: what is shown as it comes, and what is held until the end. */
function streamed(reply: string, cuts: number[]) {
	const stream = new StreamedText(TOOLS);
	let text = '';
	let shownText = '';
	for (const [index, cut] of [...cuts, reply.length].entries()) {
		const piece = reply.slice(cuts[index - 1] ?? 0, cut);
		text += piece;
		shownText += stream.push(piece);
	}
	return { shownText, pending: stream.pending(), answer: readToolsAnswer(text, TOOLS) };
}

/** Awkward cut places: every 1, 2, 3 and 7 characters, and at each quote, brace and backtick. */
function cutPlans(reply: string): number[][] {
	const every = (n: number) =>
		Array.from({ length: Math.floor(reply.length / n) }, (_, i) => (i + 1) * n);
	const marks = [...reply.matchAll(/["{}`<>:\\]/g)].map((m) => m.index);
	return [every(1), every(2), every(3), every(7), marks, marks.map((m) => m + 1)];
}

describe('tool call reader', () => {
	it.each(CALLS)('reads %s', (_, reply, expected) => {
		expect(readToolsAnswer(reply, TOOLS)).toEqual(expected);
	});

	it.each(ANSWERS)('keeps %s as the answer', (_, reply) => {
		expect(readToolsAnswer(reply, TOOLS)).toEqual({ kind: 'final', text: reply });
	});

	it.each(UNUSABLE)('names what is wrong with %s', (_, reply, problem) => {
		const answer = readToolsAnswer(reply, TOOLS);
		expect(answer.kind).toBe('malformed');
		expect(answer.kind === 'malformed' && answer.problem).toMatch(problem);
	});

	it.each(CALLS)('streamed, %s: the prose is shown, no piece of the call', (_, reply, expected) => {
		for (const plan of cutPlans(reply)) {
			const { shownText, answer } = streamed(reply, plan);
			expect(answer).toEqual(expected);
			const prose = expected.kind === 'calls' ? expected.prose : '';
			// what was shown is prose before the call, never the call's JSON, tag or label
			expect(prose.startsWith(shownText.trim())).toBe(true);
			expect(shownText).not.toMatch(/tool_call|"name"|Action:/);
		}
	});

	it.each(ANSWERS)('streamed, %s: shown as it comes or at the end, all of it', (_, reply) => {
		for (const plan of cutPlans(reply)) {
			const { shownText, pending, answer } = streamed(reply, plan);
			expect(answer).toEqual({ kind: 'final', text: reply });
			expect(reply.startsWith(shownText)).toBe(true);
			expect(shownText + pending).toBe(reply);
		}
		// prose with no opening of a call is shown whole before the end
		expect(streamed('Your order ships tomorrow.', [5, 12]).shownText).toBe(
			'Your order ships tomorrow.',
		);
	});
});
