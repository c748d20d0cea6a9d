/**
 * The Agent Platform Chat Model through n8n-core against the emulator's stand-in, and against
 * replies written out here (the emulator's `replies`): several calls in one answer (one message, whole; one call per stream, the later ones given without a
 * request), a sentence before a streamed call, and the usage and finish reason the platform reported,
 * summed over the correction round. An AI Agent turn costs at most 2 requests.
 *
 * Run: npx jest test/integration/chatModel/chat-model-several-calls.test.ts --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import type { Message } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import { streamedMessage, withToolResults } from '../../infra/n8n/modelCaller';
import { callModel, CODE_TOOL, completionPosts, emu, replies, user } from './chat-model.shared';

const ADD: BoundTool = {
	name: 'add',
	description: 'Adds two numbers',
	schema: {
		type: 'object',
		properties: { a: { type: 'number' }, b: { type: 'number' } },
		required: ['a', 'b'],
	},
};
const TOOLS = [ADD, CODE_TOOL];
const BOTH = 'Use add for 2 and 3, then lookup the word "otter".';
const RESULTS: Record<string, string> = { add: '5', lookup: 'a river animal' };
// the model's replies, by hand: the tools protocol's call (docs/chat-model.md) and Hermes' tags
const ADD_CALL = '{"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}}';
const LOOKUP_CALL = '{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}';
const HERMES_CALL =
	'<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>';
const CUT_OFF = {
	output: 'I can answer that without a tool: What is "ott',
	finishReason: 'length',
} as const;

type Part = IDataObject & { type: string };
const partsOf = (json: IDataObject) => (json.message as IDataObject).content as Part[];
/** What the platform answered last: the text the model must give whole, nothing added or cut. */
const platformSaid = () => [...emu.state.runs.values()].pop()!.output;
const withResults = (conversation: Message[], assistant: Message) =>
	withToolResults(conversation, assistant, (name) => RESULTS[name]);

describe('Agent Platform Chat Model: several calls, streamed prose, usage', () => {
	it('whole: two calls are the tool calls of one message; the turn costs 2 requests', async () => {
		const first = await callModel([{ messages: [user(BOTH)], tools: TOOLS }]);
		expect(first.error).toBeUndefined();
		expect(first.json[0].finishReason).toBe('tool-calls');
		const calls = partsOf(first.json[0]).filter((part) => part.type === 'tool-call');
		expect(calls.map((part) => [part.toolName, JSON.parse(String(part.input))])).toEqual([
			['add', { a: 2, b: 3 }],
			['lookup', { input: 'otter' }],
		]);
		const conversation = withResults([user(BOTH)], first.json[0].message as unknown as Message);
		const second = await callModel([{ messages: conversation, tools: TOOLS }]);
		expect(partsOf(second.json[0])).toEqual([{ type: 'text', text: platformSaid() }]);
		// both results reached the model: its answer is built from them
		expect(platformSaid()).toMatch(/add[\s\S]*5[\s\S]*lookup[\s\S]*a river animal/);
		expect(completionPosts()).toHaveLength(2);
	});

	it('streamed: one call per stream, the second given without a request; the turn costs 2 requests', async () => {
		// as n8n's AI Agent does with one model: stream, run the call, stream again with its result
		const conversationAfter = (earlier: IDataObject[]) =>
			earlier.reduce<Message[]>(
				(conversation, output) =>
					withResults(conversation, streamedMessage(output.chunks as IDataObject[])),
				[user(BOTH)],
			);
		const turn = { messages: conversationAfter, tools: TOOLS, stream: true };
		const { json, error } = await callModel([turn, turn, turn]);
		expect(error).toBeUndefined();
		const streams = json.map((output) => output.chunks as IDataObject[]);
		const asked = streams.map((chunks) => chunks.filter((c) => c.type === 'tool-call-delta'));
		expect(asked.map((calls) => calls.map((c) => c.name))).toEqual([['add'], ['lookup'], []]);
		const finalText = streams[2].filter((c) => c.type === 'text-delta').map((c) => c.delta);
		expect(finalText.join('')).toBe(platformSaid());
		expect(platformSaid()).toMatch(/add[\s\S]*5[\s\S]*lookup[\s\S]*a river animal/);
		expect(completionPosts()).toHaveLength(2);
		// the platform saw both calls and both results before the final answer
		const sent = (completionPosts()[1].body as IDataObject).messages as IDataObject[];
		expect(sent.slice(1).map((m) => m.role)).toEqual([
			'user',
			'assistant',
			'user',
			'assistant',
			'user',
		]);
	});

	it('streamed: the sentence before a call is shown as it comes, the call JSON never', async () => {
		replies(
			`I'll use the add tool to answer this.\n\`\`\`json\n${ADD_CALL}\n${LOOKUP_CALL}\n\`\`\``,
		);
		const { json } = await callModel([{ messages: [user(BOTH)], tools: TOOLS, stream: true }]);
		const chunks = json[0].chunks as IDataObject[];
		const shown = chunks.filter((c) => c.type === 'text-delta').map((c) => String(c.delta));
		expect(shown.join('').trim()).toBe("I'll use the add tool to answer this.");
		// a paragraph break after it: n8n's chat shows the answer after the tool as a new paragraph
		expect(shown.join('')).toMatch(/this\.\n\n$/);
		expect(shown.join('')).not.toMatch(/tool_call|```|\{/);
		expect(chunks.find((c) => c.type === 'tool-call-delta')).toMatchObject({
			name: 'add',
			argumentsDelta: JSON.stringify({ a: 2, b: 3 }),
		});
		expect(completionPosts()).toHaveLength(1);
	});

	it('Hermes tags are read as a call, whole and streamed, with no correction round', async () => {
		replies(HERMES_CALL);
		const { json } = await callModel([
			{ messages: [user('What is "otter"?')], tools: [CODE_TOOL] },
			{ messages: [user('What is "otter"?')], tools: [CODE_TOOL], stream: true },
		]);
		expect(partsOf(json[0])).toEqual([
			expect.objectContaining({
				type: 'tool-call',
				toolName: 'lookup',
				input: '{"input":"otter"}',
			}),
		]);
		const chunks = json[1].chunks as IDataObject[];
		expect(chunks.map((c) => c.type)).toEqual(['tool-call-delta', 'finish']);
		expect(completionPosts()).toHaveLength(2);
	});

	it('usage and finish reason as the platform reported them, summed over the correction round', async () => {
		replies('{"tool_call": {"name": ', LOOKUP_CALL, CUT_OFF);
		const { json } = await callModel([
			{ messages: [user('What is "otter"?')], tools: [CODE_TOOL] },
			{ messages: [user('What is "otter"?')], tools: [CODE_TOOL] },
			{ messages: [user('What is "otter"?')], tools: [CODE_TOOL], stream: true },
		]);
		const [broken, cut] = [json[0], json[1]];
		const posts = completionPosts();
		expect(posts).toHaveLength(4);
		// the corrected answer: both requests' usage, the correction's id
		const usage = broken.usage as IDataObject;
		expect(usage.totalTokens).toBe(Number(usage.promptTokens) + Number(usage.completionTokens));
		replies(LOOKUP_CALL);
		const alone = await callModel([{ messages: [user('What is "otter"?')], tools: [CODE_TOOL] }]);
		expect(Number(usage.promptTokens)).toBeGreaterThan(
			2 * Number((alone.json[0].usage as IDataObject).promptTokens),
		);
		expect(broken.id).not.toBe(alone.json[0].id);
		expect(cut).toMatchObject({ finishReason: 'length' });
		const streamedFinish = (json[2].chunks as IDataObject[]).pop();
		expect(streamedFinish).toMatchObject({ type: 'finish', finishReason: 'length' });
	});

	it("an answer to n8n's Structured Output Parser's format instructions comes back as written", async () => {
		const schema = {
			type: 'object',
			properties: {
				state: { type: 'string' },
				cities: { type: 'array', items: { type: 'string' } },
			},
		};
		const instructions = `You must format your output as a JSON value that adheres to a given "JSON Schema" instance.\n\nHere is the JSON Schema instance your output must adhere to. Include the enclosing markdown codeblock:\n\`\`\`json\n${JSON.stringify(schema)}\n\`\`\`\n`;
		// the model's answer, by hand, as LangChain's parser asks for it: the JSON in a fenced block
		const fenced = '```json\n{"state": "California", "cities": ["Los Angeles", "San Diego"]}\n```';
		replies(fenced);
		const { json } = await callModel([
			{ messages: [user(`Name a state of the USA, say "California".\n${instructions}`)] },
		]);
		expect(partsOf(json[0])).toEqual([{ type: 'text', text: fenced }]);
		expect(JSON.stringify(completionPosts()[0].body)).toContain('JSON Schema');
	});

	it('a tool with a nested schema, as MCP tools bring them: written whole, its call read whole', async () => {
		const order: BoundTool = {
			name: 'place_order',
			description: 'Places an order',
			schema: {
				type: 'object',
				properties: {
					lines: {
						type: 'array',
						items: {
							type: 'object',
							properties: { product: { type: 'string' }, quantity: { type: 'integer' } },
							required: ['product', 'quantity'],
						},
					},
					shipping: { type: 'string', enum: ['standard', 'express'] },
				},
				required: ['lines', 'shipping'],
			},
		};
		// the model's reply, by hand: the tools protocol's call with objects in an array and an enum
		const args = { lines: [{ product: 'blue mugs', quantity: 3 }], shipping: 'express' };
		replies(JSON.stringify({ tool_call: { name: 'place_order', arguments: args } }));
		const { json } = await callModel([
			{ messages: [user('Order 3 of "blue mugs" with express shipping.')], tools: [order] },
		]);
		const calls = partsOf(json[0]).filter((part) => part.type === 'tool-call');
		expect(calls.map((part) => [part.toolName, JSON.parse(String(part.input))])).toEqual([
			['place_order', args],
		]);
		const sent = (completionPosts()[0].body as { messages: Array<{ content: string }> }).messages;
		expect(sent[0].content).toContain(JSON.stringify(order.schema));
	});
});
