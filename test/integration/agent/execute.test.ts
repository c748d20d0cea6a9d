/**
 * Agent executions against the emulator, through n8n's real execution machinery: every response
 * mode, runs longer than the platform's 100 s wait (time-scaled), broken and silent streams,
 * cancellation, failing runs, chat completions, and the checks made before any request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { ALWAYS_FAILS_ERROR } from '../../../dev/emulator';
import type { StreamChunk } from '../../infra/n8n';
import { binaryItem, byId, credentialsFor, runNode } from '../../infra/n8n';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;
const CHAT = 1; // seeded chat agent
const TEXT = 3; // seeded text agent: questions topic (text, required), tone (select, required), max_words, keywords
const FAILS = 5; // seeded agent whose runs fail

// 100 virtual seconds per real second: the platform's 100 s wait lasts one real second.

useEmulator({ timeScale: 100, executionSeconds: 50, quiet: true }, (started) => (emu = started));

const chatSettings = (agentId = CHAT) => emu.firstOptions(agentId);

function execute(extra: INodeParameters = {}, agentId = CHAT): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(agentId),
		...(agentId === CHAT ? { message: 'Hello there, agent', ...chatSettings(agentId) } : {}),
		...extra,
	};
}

const posts = () => emu.requests.filter((r) => r.method === 'POST');
const polls = () =>
	emu.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/agent-responses/'));

describe('Agent → Execute: wait for completion', () => {
	it('returns the finished run as a simplified item, with root_id', async () => {
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		// every field the platform sent but the echoed input; template_id also as agent_id; the
		// platform's status word kept beside the common one; generated_files always
		expect(Object.keys(item).sort()).toEqual([
			'agent_id',
			'created_at',
			'credits',
			'error',
			'generated_files',
			'id',
			'output',
			'platform_status',
			'root_id',
			'status',
			'template_id',
			'updated_at',
		]);
		expect(item.status).toBe('succeeded');
		expect(item.output).toContain('Hello there, agent');
		expect(item.root_id).toBe(item.id);
		expect(item.agent_id).toBe(CHAT);
		expect(Number(item.credits)).toBeGreaterThan(0);
		// the body carries answers and the same fields at the top level, and both wait flags: on, so
		// that a run within the platform's 100 s hold costs this one request (docs/never-lose-a-run.md)
		const body = posts()[0].body as IDataObject;
		expect(body).toMatchObject({ wait_execution: true, waitExecution: true, ...chatSettings() });
		expect(body.answers).toMatchObject({
			...chatSettings(),
			messages: [{ role: 'user', content: 'Hello there, agent' }],
		});
		expect(body.messages).toEqual([{ role: 'user', content: 'Hello there, agent' }]);
	});

	it("a run longer than the platform's 100 s wait completes through polling", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 400 });
		try {
			const { outputs, error } = await runNode({
				parameters: execute(),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].json.status).toBe('succeeded');
			expect(posts()).toHaveLength(1);
			expect(polls().length).toBeGreaterThan(0);
			expect(polls().length).toBeLessThan(10);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});

	it('continues a conversation with root_id', async () => {
		const first = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		const rootId = first.outputs[0][0].json.root_id;
		const second = await runNode({
			parameters: execute({ message: 'And then?', options: { rootId: '={{ $json.root_id }}' } }),
			items: [{ json: { root_id: rootId } }],
			credentials: credentialsFor(emu),
		});
		expect(second.error).toBeUndefined();
		expect(second.outputs[0][0].json.root_id).toBe(rootId);
		expect(second.outputs[0][0].json.id).not.toBe(rootId);
	});

	it('answers a non-chat agent field by field and as JSON, numbers and arrays typed', async () => {
		const { outputs, error } = await runNode({
			parameters: execute(
				{
					answers: {
						mappingMode: 'defineBelow',
						value: { topic: 'Otters', tone: 'friendly', max_words: '120' },
					},
					options: { answersJson: '{"keywords": ["river", "play"]}', fullResponse: true },
				},
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		expect(outputs[0][0].json.template_id).toBe(TEXT); // the whole record
		const body = posts()[0].body as IDataObject;
		expect(body.answers).toEqual({
			topic: 'Otters',
			tone: 'friendly',
			max_words: 120,
			keywords: ['river', 'play'],
		});
		expect(body).toMatchObject({ topic: 'Otters', tone: 'friendly', max_words: 120 });
	});

	it('Model, Tools and Temperature left from the chat agent are not sent to a text agent; an array answer typed as text', async () => {
		const { error } = await runNode({
			parameters: execute(
				{
					...chatSettings(CHAT),
					answers: {
						mappingMode: 'defineBelow',
						value: { topic: 'Otters', tone: 'friendly', keywords: '["river"]' },
					},
				},
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const body = posts()[0].body as IDataObject;
		expect(body.answers).toEqual({ topic: 'Otters', tone: 'friendly', keywords: ['river'] });
	});

	it('a failing run becomes a clear error carrying the response id', async () => {
		const { error } = await runNode({
			parameters: execute(
				{ answers: { mappingMode: 'defineBelow', value: { topic: 'x', tone: 'formal' } } },
				FAILS,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		const responseId = emu.state.responses.size ? [...emu.state.responses.keys()].pop() : undefined;
		expect(error?.message).toBe(
			`The agent run ${responseId} ended with status "failed": ${ALWAYS_FAILS_ERROR}`,
		);
	});

	it("gives up at the node's timeout, saying how to fetch the run later", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 100_000 });
		try {
			const { error } = await runNode({
				parameters: execute({ options: { timeout: 0.05 } }), // 3 seconds
				credentials: credentialsFor(emu),
			});
			expect(error?.message).toMatch(/^The agent run \d+ did not finish within 3 seconds$/);
			expect((error as NodeApiError).description).toMatch(/Agent Response → Get/);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});

	it('stops polling when the n8n execution is cancelled', async () => {
		emu.configureAgent(CHAT, { executionSeconds: 100_000 });
		try {
			const { cancelled } = await runNode({
				parameters: execute(),
				credentials: credentialsFor(emu),
				cancelAfterMs: 2500,
			});
			expect(cancelled).toBe(true);
			const seen = emu.requests.length;
			await new Promise((resolve) => setTimeout(resolve, 2500));
			expect(emu.requests.length).toBe(seen);
			expect(posts()).toHaveLength(1);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});
});

describe('Agent → Execute: start only, and Agent Response → Get', () => {
	it('returns the starting response, then Get waits for the end', async () => {
		const started = await runNode({
			parameters: execute({ responseMode: 'start' }),
			credentials: credentialsFor(emu),
		});
		expect(started.outputs[0][0].json).toMatchObject({ status: 'starting', output: '' });
		const { id } = started.outputs[0][0].json;
		expect((posts()[0].body as IDataObject).wait_execution).toBe(false);

		const fetched = await runNode({
			parameters: {
				resource: 'agentResponse',
				operation: 'get',
				responseId: String(id),
				waitForCompletion: true,
			},
			credentials: credentialsFor(emu),
		});
		expect(fetched.error).toBeUndefined();
		expect(fetched.outputs[0][0].json).toMatchObject({ id, status: 'succeeded', root_id: id });
	});

	it('Get of an unknown run says so', async () => {
		const { error } = await runNode({
			parameters: { resource: 'agentResponse', operation: 'get', responseId: '987654' },
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform could not find agent response 987654');
	});
});

describe('Agent → Execute: stream', () => {
	async function streamRun(extra: INodeParameters = {}) {
		const chunks: StreamChunk[] = [];
		const result = await runNode({
			parameters: execute({ responseMode: 'stream', ...extra }),
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		return { ...result, chunks };
	}
	const recordOf = (id: unknown) => emu.state.responses.get(Number(id));

	it('assembles the deltas into one item and forwards each to the caller', async () => {
		const { outputs, error, chunks } = await streamRun();
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.output).toBe(recordOf(item.id)?.output);
		expect(Number(item.credits)).toBeGreaterThan(0);
		const texts = chunks.filter((c) => c.type === 'item').map((c) => c.content);
		expect(texts.length).toBeGreaterThan(2);
		expect(texts.join('')).toBe(item.output);
		expect(chunks[0].type).toBe('begin');
		expect(chunks[chunks.length - 1].type).toBe('end');
		expect((posts()[0].body as IDataObject).stream).toBe(true);
	});

	it('a stream cut midway still returns the whole output, through polling, without a second run', async () => {
		emu.setFaults({ cutStreamAfterEvents: 2 });
		const before = emu.executionCount;
		const { outputs, error, chunks } = await streamRun();
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.status).toBe('succeeded');
		expect(item.output).toBe(recordOf(item.id)?.output);
		expect(
			chunks
				.filter((c) => c.type === 'item')
				.map((c) => c.content)
				.join(''),
		).toBe(item.output);
		expect(emu.executionCount - before).toBe(1);
		expect(polls().length).toBeGreaterThan(0);
	});

	it('a stream that goes silent falls back to polling after the idle timeout', async () => {
		emu.setFaults({ silentStreamAfterEvents: 1 });
		const { outputs, error } = await streamRun({ options: { idleTimeout: 1 } });
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.output).toBe(recordOf(outputs[0][0].json.id)?.output);
	});
});

describe('Agent → Execute: input binaries', () => {
	it('uploads them first, streamed, and attaches them with the given file IDs', async () => {
		const text = Buffer.from('Quarterly numbers: up and to the right.\n');
		const { outputs, error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data', fileIds: '' } }),
			items: [binaryItem(text, { fileName: 'notes.txt', mimeType: 'text/plain' })],
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const [upload, run] = posts();
		expect(upload.path).toBe('/files');
		const uploaded = (upload.body as { files: Array<{ filename: string; bytes: number }> })
			.files[0];
		expect(uploaded).toMatchObject({ filename: 'notes.txt', bytes: text.length });
		const fileId = [...emu.state.files.values()].find((f) => f.filename === 'notes.txt')!.id;
		expect((run.body as IDataObject).file_ids).toEqual([fileId]);
	});

	it('refuses a file type the platform does not take, before uploading anything', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data' } }),
			items: [
				binaryItem(Buffer.from('MZ'), {
					fileName: 'tool.exe',
					mimeType: 'application/octet-stream',
				}),
			],
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toMatch(/does not accept \.exe files/);
		expect(emu.requests).toHaveLength(0);
	});

	it('counts binaries and file IDs together against the limit of 5', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data, other', fileIds: '1,2,3,4' } }),
			items: [binaryItem(Buffer.from('x'), { fileName: 'a.txt' })],
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'6 files are attached, but the platform takes at most 5 per run (item 1)',
		);
		expect(emu.requests).toHaveLength(0);
	});
});

describe('checks made before any execute request', () => {
	it('a missing required question names it and the item', async () => {
		const { error } = await runNode({
			parameters: execute(
				{ answers: { mappingMode: 'defineBelow', value: { tone: 'formal' } } },
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'The agent "Text Summarizer" needs an answer to "Topic" (topic) (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('a model the agent does not offer', async () => {
		const { error } = await runNode({
			parameters: execute({ model: 'not-a-model' }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'"not-a-model" is not one of the options of "Model" (model) for the agent "Chat Assistant" (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('six attachments, before any request at all', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { fileIds: '1,2,3,4,5,6' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'6 files are attached, but the platform takes at most 5 per run (item 1)',
		);
		expect(emu.requests).toHaveLength(0);
	});

	it('a chat agent without any message', async () => {
		const { error } = await runNode({
			parameters: execute({ message: '' }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'The agent "Chat Assistant" is a chat agent: give a Message or a History (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('a history with an unknown role', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { historyJson: '[{"role":"robot","content":"beep"}]' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('Message 1 of History (JSON) has the role "robot" (item 1)');
		expect(posts()).toHaveLength(0);
	});
});

describe('Agent → Chat Completion', () => {
	const completion = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'agent',
		operation: 'chatCompletion',
		agentId: byId(CHAT),
		message: 'What is an otter?',
		history: { messages: [{ role: 'system', content: 'Be brief.' }] },
		...chatSettings(),
		...extra,
	});

	it('plain: the OpenAI response plus a content field', async () => {
		const { outputs, error } = await runNode({
			parameters: completion(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json as IDataObject & {
			choices: Array<{ message: { content: string } }>;
		};
		expect(item.object).toBe('chat.completion');
		expect(item.content).toBe(item.choices[0].message.content);
		expect(String(item.content).length).toBeGreaterThan(0);
		expect(posts()[0].path).toBe(`/agents/${CHAT}/openai/chat/completions`);
		expect(posts()[0].body).toMatchObject({
			...chatSettings(),
			stream: false,
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'What is an otter?' },
			],
		});
	});

	it('streamed: the same content, forwarded chunk by chunk', async () => {
		const plain = await runNode({ parameters: completion(), credentials: credentialsFor(emu) });
		const chunks: StreamChunk[] = [];
		const streamed = await runNode({
			parameters: completion({ stream: true }),
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		expect(streamed.error).toBeUndefined();
		expect(streamed.outputs[0][0].json.content).toBe(plain.outputs[0][0].json.content);
		const texts = chunks.filter((c) => c.type === 'item').map((c) => c.content);
		expect(texts.length).toBeGreaterThan(1);
		expect(texts.join('')).toBe(plain.outputs[0][0].json.content);
	});

	it('refuses the developer role, which this endpoint does not take, before sending', async () => {
		const { error } = await runNode({
			parameters: completion({ options: { historyJson: '[{"role":"developer","content":"x"}]' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('Message 1 of History (JSON) has the role "developer" (item 1)');
		expect(posts()).toHaveLength(0);
	});
});
