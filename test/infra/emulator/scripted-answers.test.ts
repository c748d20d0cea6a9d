/**
 * The emulator's scripted model (dev/emulator/toolsProtocolModel.ts, schemaFilling.ts) finishes
 * each of n8n's AI paths as a model would for a simple, unambiguous text: format instructions (the
 * Information Extractor's, the Text Classifier's, Sentiment Analysis') filled from the user's
 * text, the final answer given through the tool the instruction says it must use (an AI Agent's
 * output parser, a forced tool choice), a judge's score. Texts and schemas here are not the e2e's.
 * The stream asks for usage (`stream_options`), which the platform does not document: none comes.
 */
import {
	toolChoiceInstruction,
	toolsInstruction,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { call, emu, type Json } from './shared';

const CHAT_AGENT = 1;
const PATH = `/agents/${CHAT_AGENT}/openai/chat/completions`;

/** LangChain's StructuredOutputParser instructions, as n8n's chains send them. */
const format = (schema: object) =>
	`You must format your output as a JSON value that adheres to a given "JSON Schema" instance.\n\n` +
	`Here is the JSON Schema instance your output must adhere to. Include the enclosing markdown codeblock:\n` +
	'```json\n' +
	JSON.stringify(schema) +
	'\n```\n';

async function answer(messages: Json[]): Promise<string> {
	const { status, json } = await call(PATH, { body: { messages } });
	expect(status).toBe(200);
	return json.choices[0].message.content as string;
}

const fenced = (text: string) => JSON.parse(/```json\n([\s\S]*)\n```/.exec(text)![1]);
const callOf = (text: string) => JSON.parse(text).tool_call;

describe('emulator: the scripted model reads the text it is given', () => {
	it('extraction: a person, an age, a country and an e-mail from the text', async () => {
		const schema = {
			type: 'object',
			properties: {
				fullName: { type: 'string', description: "The person's full name" },
				age: { type: 'number' },
				country: { type: 'string', description: 'Where the person lives' },
				email: { type: 'string' },
			},
		};
		const text =
			'Our new customer Grace Hopper, 85 years of age, lives in Portugal; write to grace@example.org.';
		const output = await answer([
			{ role: 'system', content: `You are an expert extraction algorithm.\n${format(schema)}` },
			{ role: 'user', content: text },
		]);
		expect(fenced(output)).toEqual({
			fullName: 'Grace Hopper',
			age: 85,
			country: 'Portugal',
			email: 'grace@example.org',
		});
	});

	it.each([
		['The parcel came late and the box was damaged. Very disappointing.', 'complaint'],
		['Great support, thank you so much, I will recommend you!', 'praise'],
		['Where can I change the address on my invoice?', 'question'],
	])('classification: %s → %s', async (text, category) => {
		const described = (name: string, description: string) => ({
			type: 'boolean',
			description: `Should be true if the input has category "${name}" (description: ${description})`,
		});
		const schema = {
			type: 'object',
			properties: {
				complaint: described('complaint', 'the customer is unhappy about something'),
				praise: described('praise', 'the customer says something good about us'),
				question: described(
					'question',
					'the customer asks where, how or what about an address or invoice',
				),
			},
		};
		const output = fenced(
			await answer([
				{ role: 'system', content: `Please classify the text.\n${format(schema)}` },
				{ role: 'user', content: text },
			]),
		);
		expect(
			Object.entries(output)
				.filter(([, v]) => v)
				.map(([k]) => k),
		).toEqual([category]);
	});

	it.each([
		['I hate waiting, the app is useless and slow.', 'Negative'],
		['What a lovely, helpful team!', 'Positive'],
		['The meeting is on Tuesday at the office.', 'Neutral'],
	])('sentiment: %s → %s', async (text, sentiment) => {
		const schema = {
			type: 'object',
			properties: {
				sentiment: { type: 'string', enum: ['Positive', 'Neutral', 'Negative'] },
				strength: { type: 'number', minimum: 0, maximum: 1 },
				confidence: { type: 'number', minimum: 0, maximum: 1 },
			},
		};
		const output = fenced(
			await answer([
				{ role: 'system', content: `Analyze the sentiment.\n${format(schema)}` },
				{ role: 'user', content: text },
			]),
		);
		expect(output.sentiment).toBe(sentiment);
		expect(output.strength).toBeGreaterThanOrEqual(0);
		expect(output.strength).toBeLessThanOrEqual(1);
	});

	it("an AI Agent's output parser with a tool: the tool with the question's values, then the final tool from its result", async () => {
		const multiply = {
			name: 'multiply',
			description: 'Multiplies two numbers',
			schema: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } },
		};
		const final = {
			name: 'format_final_json_response',
			description: 'The final answer',
			schema: {
				type: 'object',
				properties: { product: { type: 'number' }, unit: { type: 'string' } },
			},
		};
		const system = `You MUST use the \`format_final_json_response\` tool for your answer.\n\n${toolsInstruction([multiply, final])}`;
		const question = 'How much is 7 times 6? Use the multiply tool.';
		const first = await answer([
			{ role: 'system', content: system },
			{ role: 'user', content: question },
		]);
		expect(callOf(first)).toEqual({ name: 'multiply', arguments: { x: 7, y: 6 } });
		const second = await answer([
			{ role: 'system', content: system },
			{ role: 'user', content: question },
			{ role: 'assistant', content: first },
			{ role: 'user', content: 'Result of the tool "multiply":\n42' },
		]);
		expect(callOf(second)).toMatchObject({
			name: 'format_final_json_response',
			arguments: { product: 42 },
		});
	});

	it('a forced tool choice (withStructuredOutput): the tool is called; a judge scores alike texts high, unlike ones low', async () => {
		const judge = {
			name: 'grade',
			description: 'A grade',
			schema: {
				type: 'object',
				properties: {
					reasoning_summary: { type: 'string' },
					score: { type: 'integer', minimum: 1, maximum: 5, description: 'the similarity score' },
				},
			},
		};
		const system = `${toolChoiceInstruction('grade')}\n\n${toolsInstruction([judge])}`;
		const graded = async (content: string) =>
			callOf(
				await answer([
					{ role: 'system', content: system },
					{ role: 'user', content },
				]),
			);
		const alike = await graded(
			'Output: Mount Everest\n\nGround truth: The highest mountain is Mount Everest.',
		);
		const unlike = await graded(
			'Output: Mont Blanc\n\nGround truth: The highest mountain is Mount Everest.',
		);
		expect(alike.name).toBe('grade');
		expect(alike.arguments.score).toBeGreaterThanOrEqual(4);
		expect(unlike.arguments.score).toBeLessThanOrEqual(3);
	});

	it('a tool with a nested schema, as MCP tools bring them: objects in an array, an enum', async () => {
		const order = {
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
		const output = await answer([
			{ role: 'system', content: toolsInstruction([order]) },
			{ role: 'user', content: 'Order 3 of "blue mugs" with express shipping.' },
		]);
		expect(callOf(output)).toEqual({
			name: 'place_order',
			arguments: { lines: [{ product: 'blue mugs', quantity: 3 }], shipping: 'express' },
		});
	});

	it('a stream asked for usage (stream_options) carries none, as the platform does not document it', async () => {
		const res = await fetch(emu.url + PATH, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${emu.apiKey}`,
				'x-workspace-id': emu.workspaceId,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({
				messages: [{ role: 'user', content: 'Hello' }],
				stream: true,
				stream_options: { include_usage: true },
			}),
		});
		expect(res.status).toBe(200);
		const text = await res.text();
		expect(text).toContain('[DONE]');
		expect(text).not.toContain('usage');
	});
});
