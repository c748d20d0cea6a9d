/**
 * The emulator's stand-in (dev/emulator/toolsProtocolModel.ts, structuredValues.ts; docs/emulator.md)
 * over HTTP, on each of n8n's AI paths: format instructions (the Information Extractor's, the Text
 * Classifier's) answered with values of the schema's types, empty where it cannot know, the
 * category sharing the most words with the text; the final answer given through the tool the
 * instruction says it must use (an AI Agent's output parser, a forced tool choice); a tool's
 * nested schema filled from the question. Expected values written by hand.
 * The stream asks for usage (`stream_options`), which the platform does not document: none comes.
 */
import {
	toolChoiceInstruction,
	toolsInstruction,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { call, emu, type Json } from './shared';
import { CHAT_AGENT } from '../../../dev/emulator';

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

describe('emulator: the stand-in on the structured paths', () => {
	it("extraction: the schema's types, empty; a required number 0, a nullable field null", async () => {
		const schema = {
			type: 'object',
			properties: {
				fullName: { type: 'string', description: "The person's full name" },
				age: { type: 'number' },
				country: { type: ['string', 'null'] },
				email: { type: 'string', format: 'email' },
			},
			required: ['fullName', 'age'],
		};
		const text =
			'Our new customer Grace Hopper, 85 years of age, lives in Portugal; write to grace@example.org.';
		const output = await answer([
			{ role: 'system', content: `You are an expert extraction algorithm.\n${format(schema)}` },
			{ role: 'user', content: text },
		]);
		expect(fenced(output)).toEqual({ fullName: '', age: 0, country: null });
	});

	it('classification: the category whose description shares the most words with the text', async () => {
		const described = (name: string, description: string) => ({
			type: 'boolean',
			description: `Should be true if the input has category "${name}" (description: ${description})`,
		});
		const schema = {
			type: 'object',
			properties: {
				complaint: described('complaint', 'a late parcel, a damaged box'),
				question: described('question', 'where or how to change an address or an invoice'),
			},
		};
		const output = fenced(
			await answer([
				{ role: 'system', content: `Please classify the text.\n${format(schema)}` },
				{ role: 'user', content: 'Where can I change the address on my invoice?' },
			]),
		);
		// where, change, address, invoice: four words of "question", none of "complaint"
		expect(output).toEqual({ complaint: false, question: true });
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
		// the stand-in cannot know what goes into the answer: the schema's types, empty
		expect(callOf(second)).toEqual({
			name: 'format_final_json_response',
			arguments: { unit: '' },
		});
	});

	it("a forced tool choice (withStructuredOutput): the tool is called with the schema's types", async () => {
		const judge = {
			name: 'grade',
			description: 'A grade',
			schema: {
				type: 'object',
				properties: {
					reasoning_summary: { type: 'string' },
					score: { type: 'integer', minimum: 1, maximum: 5, description: 'the similarity score' },
				},
				required: ['reasoning_summary', 'score'],
			},
		};
		const system = `${toolChoiceInstruction('grade')}\n\n${toolsInstruction([judge])}`;
		const graded = await answer([
			{ role: 'system', content: system },
			{ role: 'user', content: 'Output: Mount Everest\n\nGround truth: Mount Everest.' },
		]);
		expect(callOf(graded)).toEqual({
			name: 'grade',
			arguments: { reasoning_summary: '', score: 1 },
		});
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
