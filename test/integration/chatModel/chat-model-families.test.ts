/**
 * The Agent Platform Chat Model through n8n-core against the emulator, with replies in other model
 * families' formats and with reasoning, written out here as each family's public parser's tests
 * write them (the emulator's `replies`): calls read with no correction round, whole and streamed
 * (nothing of a call shown); reasoning out of the answer and the stream, kept in the result's
 * providerMetadata (the message's response_metadata in n8n), with tools and without.
 *
 * Run: npx jest test/integration/chatModel/chat-model-families.test.ts --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';
import {
	callModel,
	CHAT,
	CODE_TOOL,
	completionPosts,
	emu,
	replies,
	user,
} from './chat-model.shared';

type Part = IDataObject & { type: string };
const partsOf = (json: IDataObject) => (json.message as IDataObject).content as Part[];
const shownOf = (json: IDataObject) =>
	(json.chunks as IDataObject[])
		.filter((c) => c.type === 'text-delta')
		.map((c) => String(c.delta))
		.join('');
/** Reasoning that quotes a call of the tool, which must not run. */
const THOUGHT =
	'<think>The user asked something; a call would look like {"name":"lookup","arguments":{}}. I decide now.</think>\n\n';

describe('Agent Platform Chat Model: model families and reasoning', () => {
	it.each([
		['pythonic', "[lookup(input='otter')]"],
		[
			'qwen3-coder with reasoning',
			`${THOUGHT}<tool_call>\n<function=lookup>\n<parameter=input>\notter\n</parameter>\n</function>\n</tool_call>`,
		],
		[
			'harmony',
			'<|start|>assistant<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{"input":"otter"}<|call|>',
		],
		[
			'kimi',
			'<|tool_calls_section_begin|><|tool_call_begin|>functions.lookup:0 <|tool_call_argument_begin|>{"input":"otter"}<|tool_call_end|><|tool_calls_section_end|>',
		],
		['langchain-json', '```json\n{"action":"lookup","action_input":{"input":"otter"}}\n```'],
	])(
		'%s: the call is read whole and streamed, from one request each, nothing of it shown',
		async (_, reply) => {
			replies(reply);
			const ask = user('What is "otter"?');
			const { json, error } = await callModel([
				{ messages: [ask], tools: [CODE_TOOL] },
				{ messages: [ask], tools: [CODE_TOOL], stream: true },
			]);
			expect(error).toBeUndefined();
			expect(partsOf(json[0])).toEqual([
				expect.objectContaining({
					type: 'tool-call',
					toolName: 'lookup',
					input: '{"input":"otter"}',
				}),
			]);
			expect(shownOf(json[1])).toBe('');
			expect((json[1].chunks as IDataObject[])[0]).toMatchObject({
				type: 'tool-call-delta',
				name: 'lookup',
			});
			expect(completionPosts()).toHaveLength(2);
		},
	);

	it('without tools: the reasoning is out of the answer and the stream, kept beside it', async () => {
		emu.configureAgent(CHAT, {
			outputs: [
				'<think>The user greets me; I greet back.</think>\n\nHello! How can I help?',
				'<think>The user greets me; I greet back.</think>\n\nHello! How can I help?',
			],
		});
		const { json } = await callModel([
			{ messages: [user('Hi')] },
			{ messages: [user('Hi')], stream: true },
		]);
		expect(partsOf(json[0])).toEqual([{ type: 'text', text: 'Hello! How can I help?' }]);
		expect(json[0].providerMetadata).toEqual({ reasoning: 'The user greets me; I greet back.' });
		expect(shownOf(json[1])).toBe('Hello! How can I help?');
	});

	it('with tools: a call quoted in the reasoning does not run; the answer after it streams', async () => {
		const answer = 'I can answer that without a tool: What is an otter?';
		replies(`${THOUGHT}${answer}`);
		const messages = [user('What is an otter?')];
		const { json } = await callModel([
			{ messages, tools: [CODE_TOOL] },
			{ messages, tools: [CODE_TOOL], stream: true },
		]);
		expect(partsOf(json[0])).toEqual([{ type: 'text', text: answer }]);
		expect(String((json[0].providerMetadata as IDataObject).reasoning)).toContain('"lookup"');
		expect(shownOf(json[1])).toBe(answer);
		expect(completionPosts()).toHaveLength(2);
	});

	it('reasoning opened in the prompt (only </think>): out of the answer; later streams hide it', async () => {
		const reply = 'The user greets me; I greet back.\n</think>\n\nHello!';
		emu.configureAgent(CHAT, { outputs: [reply, reply, 'Hello again!'] });
		const { json } = await callModel([
			{ messages: [user('Hi')] },
			{ messages: [user('Hi')], stream: true },
			{ messages: [user('Hi')], stream: true },
		]);
		expect(partsOf(json[0])).toEqual([{ type: 'text', text: 'Hello!' }]);
		expect(shownOf(json[1])).toBe('Hello!');
		expect(shownOf(json[2])).toBe('Hello again!');
	});
});
