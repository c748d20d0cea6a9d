/**
 * The emulator's stand-in for OpenAI clients (dev/emulator/toolCalling.ts, docs/emulator.md): what
 * n8n's AI Agent gets from an OpenAI Chat Model pointed at `{emulator}/agents/{id}/openai` when it
 * sends function definitions in `tools`: a function called when the question names it or words of
 * its description, the example's questions answered with their turns, anything else the plain
 * answer. The platform's own form (`tools` as a string) is unchanged.
 */
import { startEmulator, type PlatformEmulator } from '../../../dev/emulator';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let emu: PlatformEmulator;
const CHAT_AGENT = 1;

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 20, quiet: true });
});
afterAll(async () => {
	await emu.stop();
});

async function complete(body: Json): Promise<{ status: number; json: Json; text: string }> {
	const res = await fetch(`${emu.url}/agents/${CHAT_AGENT}/openai/chat/completions`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${emu.apiKey}`,
			'x-workspace-id': emu.workspaceId,
			'content-type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	const text = await res.text();
	let json: Json = {};
	try {
		json = JSON.parse(text);
	} catch {
		// a stream
	}
	return { status: res.status, json, text };
}

const askAgent = {
	type: 'function',
	function: {
		name: 'ask_platform_agent',
		description: 'Asks the platform agent',
		parameters: {
			type: 'object',
			properties: {
				message: { type: 'string' },
				count: { type: 'number' },
				strict: { type: 'boolean' },
			},
			required: ['message'],
		},
	},
};

test('with function definitions it calls the function whose description the question shares words with, with the question', async () => {
	const before = emu.executionCount;
	const { status, json } = await complete({
		model: 'gpt-4o-mini',
		messages: [
			{ role: 'system', content: 'You are a helpful assistant' },
			{ role: 'user', content: 'Ask the platform agent what otters eat.' },
		],
		tools: [askAgent],
	});
	expect(status).toBe(200);
	expect(json).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini' });
	const [choice] = json.choices;
	expect(choice.finish_reason).toBe('tool_calls');
	expect(choice.message).toMatchObject({ role: 'assistant', content: null });
	const [call] = choice.message.tool_calls;
	expect(call).toMatchObject({ type: 'function', function: { name: 'ask_platform_agent' } });
	expect(call.id).toMatch(/^call_/);
	// "platform", "agent": words of its description; the optional number and boolean left out
	expect(JSON.parse(call.function.arguments)).toEqual({
		message: 'Ask the platform agent what otters eat.',
	});
	expect(emu.executionCount).toBe(before); // a scripted answer runs no agent
});

test('after the tool answered it replies with the tool result, and streams the same way', async () => {
	const conversation = [
		{ role: 'user', content: 'What do otters eat?' },
		{
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: 'call_1',
					type: 'function',
					function: { name: 'ask_platform_agent', arguments: '{}' },
				},
			],
		},
		{ role: 'tool', tool_call_id: 'call_1', content: '[{"output":"Fish and shellfish"}]' },
	];
	const plain = await complete({ model: 'gpt-4o-mini', messages: conversation, tools: [askAgent] });
	expect(plain.status).toBe(200);
	expect(plain.json.choices[0]).toMatchObject({
		finish_reason: 'stop',
		message: { role: 'assistant' },
	});
	// a sentence from the result, its JSON read, not quoted
	const said = plain.json.choices[0].message.content as string;
	expect(said).toBe(
		"The ask_platform_agent tool returned: Fish and shellfish.\n\n(The emulator's stand-in answered, with a turn written for the example: not a real model.)",
	);

	const streamed = await complete({
		model: 'gpt-4o-mini',
		messages: conversation,
		tools: [askAgent],
		stream: true,
	});
	expect(streamed.status).toBe(200);
	const events = streamed.text
		.split('\n')
		.filter((l) => l.startsWith('data: '))
		.map((l) => l.slice(6));
	expect(events.pop()).toBe('[DONE]');
	const chunks = events.map((e) => JSON.parse(e));
	expect(chunks.map((c) => c.object)).toEqual(['chat.completion.chunk', 'chat.completion.chunk']);
	expect(chunks[0].choices[0].delta.content).toBe(plain.json.choices[0].message.content);
	expect(chunks[1].choices[0].finish_reason).toBe('stop');

	const firstTurn = await complete({
		messages: [{ role: 'user', content: 'Who wrote Hamlet? Ask the platform agent.' }],
		tools: [askAgent],
		stream: true,
	});
	const first = JSON.parse(
		firstTurn.text
			.split('\n')
			.find((l) => l.startsWith('data: {'))!
			.slice(6),
	);
	expect(first.choices[0].delta.tool_calls[0]).toMatchObject({
		index: 0,
		function: { name: 'ask_platform_agent' },
	});
});

test("bad function definitions and tool messages get the platform's 422; the string form of tools is unchanged", async () => {
	const badTool = await complete({
		messages: [{ role: 'user', content: 'hi' }],
		tools: [{ type: 'function' }],
	});
	expect(badTool.status).toBe(422);
	expect(badTool.json.errors).toHaveProperty(['tools.0']);
	const badToolMessage = await complete({
		messages: [
			{ role: 'user', content: 'hi' },
			{ role: 'tool', content: 'x' },
		],
		tools: [askAgent],
	});
	expect(badToolMessage.status).toBe(422);
	expect(badToolMessage.json.errors).toHaveProperty(['messages.1.tool_call_id']);

	const platformForm = await complete({
		messages: [{ role: 'user', content: 'hi' }],
		tools: 'not-one-of-the-agent-tools',
	});
	expect(platformForm.status).toBe(422);
	expect(platformForm.json.errors).toHaveProperty(['tools']);
});

test("the example's questions: the word looked up, the code written, the history read; anything else the plain answer", async () => {
	const lookup = {
		type: 'function',
		function: {
			name: 'glossary',
			description: "Looks a word up in the team's glossary",
			parameters: { type: 'object', properties: { word: { type: 'string' } } },
		},
	};
	const code = await complete({
		messages: [{ role: 'user', content: 'Write a Python function that reverses a string' }],
		tools: [lookup],
	});
	expect(code.json.choices[0].finish_reason).toBe('stop');
	expect(code.json.choices[0].message.content).toMatch(/```python\ndef \w+\(/);
	const defined = await complete({
		messages: [{ role: 'user', content: 'What does sprint mean?' }],
		tools: [lookup],
	});
	const [call] = defined.json.choices[0].message.tool_calls;
	expect(JSON.parse(call.function.arguments)).toEqual({ word: 'sprint' });
	const memory = await complete({
		messages: [
			{ role: 'user', content: 'What does sprint mean?' },
			{ role: 'assistant', content: 'Two weeks of planned work.' },
			{ role: 'user', content: 'What is an otter?' },
			{ role: 'assistant', content: 'A river animal.' },
			{ role: 'user', content: 'Which word did I ask you about first?' },
		],
		tools: [lookup],
	});
	expect(memory.json.choices[0].finish_reason).toBe('stop');
	expect(memory.json.choices[0].message.content).toContain('sprint');
	expect(memory.json.choices[0].message.content).toBe(
		'Your first question was about sprint ("What does sprint mean?").',
	);
	const other = await complete({
		messages: [{ role: 'user', content: 'Who won the match yesterday?' }],
		tools: [lookup, askAgent],
	});
	expect(other.json.choices[0]).toMatchObject({
		finish_reason: 'stop',
		message: {
			content:
				"I am the emulator's stand-in for a model, not a real one, so I cannot answer that. I answer the example workflows' suggested questions; set EMULATOR_MODEL_URL to chat with a model of your own.",
		},
	});
});
