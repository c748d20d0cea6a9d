/**
 * A model of one's own behind the emulator (dev/emulator/modelEndpoint.ts, docs/emulator.md): with
 * an OpenAI-compatible endpoint given (EMULATOR_MODEL_URL for `npm start`), the chat agents' model
 * calls go there, here to a fake endpoint of this test's own on loopback that answers as the
 * OpenAI chat-completions API documents (a completion, chunks with `[DONE]`, an error object):
 * the request as sent (the endpoint's model, the key in the header only), the answer whole and
 * streamed, function calls passed through, a failure of the endpoint as a failed run, and the
 * emulator's request log showing what went, never the key.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { startEmulator, type PlatformEmulator } from '../../../dev/emulator';
import { readBody, startLoopbackServer, type LoopbackServer } from '../../../dev/loopback';
import { toolsInstruction } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { CHAT_AGENT } from '../../../dev/emulator';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY = 'sk-own-model-key-4711';
let fake: LoopbackServer;
let emu: PlatformEmulator;
/** What the fake endpoint received, and what it answers next. */
const received: Array<{ path: string; authorization?: string; body: Json }> = [];
let next: (res: ServerResponse, body: Json) => void;

const completion = (content: string) => ({
	id: 'chatcmpl-1',
	object: 'chat.completion',
	created: 1,
	model: 'llama3.2',
	choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const chunk = (delta: Json, finish: string | null = null) =>
	`data: ${JSON.stringify({ object: 'chat.completion.chunk', model: 'llama3.2', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const answerWith = (content: string) => (res: ServerResponse, body: Json) => {
	if (!body.stream) return void res.end(JSON.stringify(completion(content)));
	res.writeHead(200, { 'content-type': 'text/event-stream' });
	const [a, b] = [content.slice(0, 5), content.slice(5)];
	res.end(
		`${chunk({ role: 'assistant', content: a })}${chunk({ content: b })}${chunk({}, 'stop')}data: [DONE]\n\n`,
	);
};

beforeAll(async () => {
	fake = await startLoopbackServer(async (req: IncomingMessage, res: ServerResponse) => {
		const body = JSON.parse((await readBody(req)).toString()) as Json;
		received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
		next(res, body);
	});
	emu = await startEmulator({
		timeScale: 50,
		quiet: true,
		model: { url: `${fake.origin}/v1/`, key: KEY, model: 'llama3.2' },
	});
});
afterAll(async () => {
	await emu.stop();
	await fake.close();
});
beforeEach(() => {
	received.length = 0;
	emu.requests.length = 0;
});

async function post(
	path: string,
	body: Json,
): Promise<{ status: number; json: Json; text: string }> {
	const res = await fetch(`${emu.url}${path}`, {
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

const events = (text: string) =>
	text
		.split('\n')
		.filter((l) => l.startsWith('data: {'))
		.map((l) => JSON.parse(l.slice(6)) as Json);
const COMPLETIONS = `/agents/${CHAT_AGENT}/openai/chat/completions`;
const SYSTEM = {
	role: 'system',
	content: toolsInstruction([{ name: 'lookup', description: 'Looks a word up', schema: {} }]),
};

test("the chat model's request goes to the endpoint as it came, the endpoint's answer comes back whole", async () => {
	next = answerWith('Otters eat sea urchins.');
	const messages = [SYSTEM, { role: 'user', content: 'What do otters eat?' }];
	const { status, json } = await post(COMPLETIONS, { messages, temperature: '0.2' });
	expect(status).toBe(200);
	expect(json.choices[0]).toMatchObject({
		message: { role: 'assistant', content: 'Otters eat sea urchins.' },
		finish_reason: 'stop',
	});
	expect(received).toEqual([
		{
			path: '/v1/chat/completions',
			authorization: `Bearer ${KEY}`,
			body: { messages, temperature: 0.2, stream: false, model: 'llama3.2' },
		},
	]);
	// the platform stays emulated: the call is a run of the chat agent
	const run = [...emu.state.runs.values()].pop()!;
	expect(run).toMatchObject({ status: 'succeeded', output: 'Otters eat sea urchins.' });
	// the request log shows what went, never the key
	expect(emu.requests[0].forwarded).toEqual({
		url: `${fake.origin}/v1/chat/completions`,
		body: received[0].body,
		status: 200,
	});
	expect(JSON.stringify(emu.requests)).not.toContain(KEY);
});

test('streamed: the answer streams to the chat model in the platform’s chunks', async () => {
	next = answerWith('Otters eat sea urchins.');
	const { status, text } = await post(COMPLETIONS, {
		messages: [{ role: 'user', content: 'What do otters eat?' }],
		stream: true,
	});
	expect(status).toBe(200);
	const chunks = events(text);
	expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(
		'Otters eat sea urchins.',
	);
	expect(chunks.pop()!.choices[0].finish_reason).toBe('stop');
	expect(text.trim().endsWith('data: [DONE]')).toBe(true);
});

test('a failing endpoint is a failed run, in its words without the key: whole, streamed and on Execute', async () => {
	next = (res) => {
		res.writeHead(401, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.` } }));
	};
	const words = `The model at ${fake.origin}/v1/chat/completions answered 401: Incorrect API key provided: ***.`;
	const messages = [{ role: 'user', content: 'Hello' }];
	const whole = await post(COMPLETIONS, { messages });
	expect(whole.status).toBe(500);
	expect(whole.json.error).toEqual({
		message: words,
		type: 'server_error',
		param: null,
		code: 'agent_failed',
	});
	const streamed = await post(COMPLETIONS, { messages, stream: true });
	expect(events(streamed.text)).toEqual([
		{ error: { message: words, type: 'server_error', param: null, code: 'agent_failed' } },
	]);
	const executed = await post(`/agents/${CHAT_AGENT}/execute`, { messages, wait_execution: true });
	expect(executed.json.responses[0]).toMatchObject({ status: 'failed', error: words });
	expect(JSON.stringify(emu.requests)).not.toContain(KEY);
});

test('Execute on a chat agent: the model gets the session so far, and its answer is the run’s', async () => {
	const replies = ['Hello Ada!', 'Your name is Ada.'];
	next = (res, body) => answerWith(replies.shift()!)(res, body);
	const first = await post(`/agents/${CHAT_AGENT}/execute`, {
		messages: [{ role: 'user', content: 'I am Ada.' }],
		wait_execution: true,
	});
	const { root_id: rootId, output } = first.json.responses[0];
	expect(output).toBe('Hello Ada!');
	const second = await post(`/agents/${CHAT_AGENT}/execute`, {
		messages: [{ role: 'user', content: 'What is my name?' }],
		root_id: rootId,
		wait_execution: true,
	});
	expect(second.json.responses[0].output).toBe('Your name is Ada.');
	expect(received[1].body.messages).toEqual([
		{ role: 'user', content: 'I am Ada.' },
		{ role: 'assistant', content: 'Hello Ada!' },
		{ role: 'user', content: 'What is my name?' },
	]);
});
