/**
 * Where a call is read (issue 50): ordinary answers as assistants write them, with two tools bound,
 * stay the answer word for word, whole and streamed (streamProperty.ts), and what the stream showed
 * plus its pending text is the answer; each family's module reads what its own writers write; the
 * agent's model chooses the families read.
 */
import {
	familiesFor,
	readToolsAnswer,
	StreamedText,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { WRITERS_BY_FAMILY } from './modelFormats';
import { FAMILIES } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/families';
import { streamProblems } from './streamProperty';
import { ADD, LOOKUP, TOOLS } from './toolCallCorpus';

const F = '```';

/** [what it is, the answer] */
const ORDINARY: Array<[string, string]> = [
	[
		'a request body built in JavaScript',
		`Build the body in a Code node:\n\n${F}javascript\nconst body = JSON.stringify({"name": $json.name, "arguments": $json.args});\nreturn [{ json: { body } }];\n${F}\n\nThen send it with an HTTP Request node.`,
	],
	['an n8n expression', '{"name": {{ $json.name }}, "age": {{ $json.age }}}'],
	[
		'prose about an API\'s "tool_calls" field',
		'The response carries a "tool_calls": [...] array; each item has "name" and "arguments" (a JSON string), so parse it before use.',
	],
	['a Python dict', "Use a dict:\n{'name': name, 'age': age}\nand pass it to the function."],
	[
		'a TypeScript file with functions named like the tools',
		`${F}ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function lookup(input: string) {\n  return { name: 'lookup', arguments: { input } };\n}\n${F}\n\n${F}ts\nit('adds', () => expect(add(2, 3)).toBe(5));\n${F}`,
	],
	[
		'a fenced Python line with keyword arguments',
		`Set a timeout:\n\n${F}python\nrequests.get(url=url, timeout=5)\n${F}`,
	],
	[
		"another API's call response inside prose",
		`OpenAI answers a tool call like this:\n\n${F}json\n{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\\"a\\": 2, \\"b\\": 3}"}}]}\n${F}\n\nYour code runs the function and sends the result back in a "tool" message.`,
	],
	[
		'an example of a call between two paragraphs',
		'Anthropic returns a block like\n{"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 2, "b": 3}}\nand you answer with a tool_result block.',
	],
	[
		'an example of an unknown tool after prose, at the end, in inline code',
		'OpenAI returns: `{"tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}`',
	],
	[
		'meeting notes with an action line',
		'Meeting notes, Tuesday\n\nAction: Dana sends the report by Friday.\nDecision: ship on the 3rd.',
	],
	[
		'Hermes tags explained',
		'Qwen writes each call between <tool_call> and </tool_call> tags; the serving stack parses them.',
	],
	[
		'a marker at a line start, in prose about it',
		'<tool_call> tags wrap each call in Hermes models.\nThe JSON inside names the function.',
	],
	[
		'prose about reasoning tags',
		'DeepSeek-R1 wraps its reasoning in <think> and </think> tags, then answers.\nStrip the part before </think>.',
	],
	['a call in the middle of a sentence', 'Calling add(a=2, b=3) returns 5, as the docs say.'],
	[
		'a JSON array of people',
		'[{"name": "Alice", "role": "admin"}, {"name": "Bob", "role": "user"}]',
	],
	['a YAML config with name keys', `${F}yaml\nname: add\narguments:\n  a: 2\n  b: 3\n${F}`],
	[
		'HTML with a table',
		'<table>\n<tr><th>name</th><th>arguments</th></tr>\n<tr><td>add</td><td>a, b</td></tr>\n</table>',
	],
	[
		'an answer cut off mid-code',
		`Here is the module:\n\n${F}python\ndef add(a, b):\n    return {"name": "add", "arguments": {"a": a, "b": b`,
	],
];

describe('ordinary answers stay answers', () => {
	it.each(ORDINARY)('%s: the answer, word for word', (_, reply) => {
		expect(readToolsAnswer(reply, TOOLS)).toEqual({ kind: 'final', text: reply });
	});

	it('streamed a character at a time and in random chunks: the chat ends with each answer', () => {
		const cases = ORDINARY.map(([name, reply]) => ({ name, reply, tools: TOOLS, answer: reply }));
		expect(streamProblems(cases)).toEqual([]);
	});

	it('a code answer is shown line by line, its fence let go at its language line', () => {
		const stream = new StreamedText(TOOLS);
		expect(stream.push(`Set a timeout:\n\n${F}pyth`)).toBe('Set a timeout:');
		expect(stream.push('on\nrequests.get(url=url, ')).toBe(`\n\n${F}python\nrequests.get(url=url,`);
	});

	it('JSON at the answer start is let go at its first key, a call held', () => {
		const data = new StreamedText(TOOLS);
		expect(data.push('{"ci')).toBe('');
		expect(data.push('ty": "Lisbon"')).toBe('{"city": "Lisbon"');
		const call = new StreamedText(TOOLS);
		expect(call.push('{"name": "add", "arguments": {"a": 2')).toBe('');
		const unknown = new StreamedText(TOOLS);
		expect(unknown.push('{"name": "Alice", "age"')).toBe('{"name": "Alice", "age"');
	});

	it('a tag that is no family marker goes on at once; a marker holds', () => {
		const page = new StreamedText(TOOLS);
		expect(page.push('<div>')).toBe('<div>');
		const call = new StreamedText(TOOLS);
		expect(call.push('Sure.\n<tool_c')).toBe('Sure.');
		expect(call.push('all>{"name"')).toBe('');
	});
});

describe('one module per family', () => {
	const cases = FAMILIES.flatMap((family) =>
		Object.entries(WRITERS_BY_FAMILY[family.name]).map(
			([writer, write]) => [family.name, writer, write] as const,
		),
	);

	it.each(cases)('%s reads what its writer %s writes, alone', (name, __, write) => {
		const family = FAMILIES.find((f) => f.name === name)!;
		expect(readToolsAnswer(write([ADD, LOOKUP]), TOOLS, [family])).toMatchObject({
			kind: 'calls',
			calls: [ADD, LOOKUP],
		});
	});

	it("the agent's model chooses the families read; all of them when it is not known", () => {
		const qwen = familiesFor(['qwen2.5-72b-instruct']).map((family) => family.name);
		expect(qwen).toEqual(['hermes', 'asked', 'json']);
		expect(familiesFor(['some-model']).length).toBe(FAMILIES.length);
		expect(familiesFor(undefined).length).toBe(FAMILIES.length);
		// a Mistral call is not read for a Qwen model: its marker is prose there
		const mistral = '[TOOL_CALLS][{"name": "add", "arguments": {"a": 2, "b": 3}}]';
		expect(readToolsAnswer(mistral, TOOLS, familiesFor(['qwen2.5-72b-instruct'])).kind).toBe(
			'final',
		);
		expect(readToolsAnswer(mistral, TOOLS, familiesFor(['mistral-large'])).kind).toBe('calls');
	});
});
