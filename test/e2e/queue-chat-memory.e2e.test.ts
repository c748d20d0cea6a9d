/**
 * A chat that remembers in queue mode: Chat Trigger (public) → Agent → Execute with n8n's Redis
 * Chat Memory, on n8n's queue-mode set-up (dev/n8n/queueMode.ts: PostgreSQL, a main process, two workers
 * and a webhook processor, which receives the chat's messages). The first message is run by
 * one worker; that worker is then stopped, so the second message is run by the other: the second
 * request still continues the first conversation (its root_id, read from Redis), one request a
 * turn. The chat memory has a Redis of its own (Debian's redis-server, as the queue's).
 *
 * Run: npx jest test/e2e/queue-chat-memory.e2e.test.ts --selectProjects e2e --runInBand   (E2E_N8N_LINES=2 for one line)
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	log,
	selectedLines,
	sleep,
	waitFor,
	type N8nLine,
} from '../../dev/n8n/harness';
import { chatAgentVars, loadWorkflow } from './fixtures';
import { startQueueMode, type QueueMode } from '../../dev/n8n/queueMode';
import { startRedis, type Redis } from '../../dev/n8n/redis';

const API_KEY = 'e2e-queue-memory-key-7e21';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const CREDENTIAL = { id: fixtureId('credQueueMemory'), name: 'Agent Platform (queue memory)' };
const REDIS_CREDENTIAL_ID = fixtureId('credRedisMemory');
const WORKFLOW = 'queueMemoryChat1';
const CHAT_WEBHOOK = '6b1d0e20-77aa-4c3d-9e0f-00000000c4a7';

describe.each(selectedLines())(
	'n8n $line ($version) in queue mode: a chat with Redis Chat Memory across workers',
	(line: N8nLine) => {
		let emu: PlatformEmulator;
		let folder: string;
		let memoryRedis: Redis | undefined;
		let queue: QueueMode | undefined;
		let started = Date.now();

		beforeAll(async () => {
			started = Date.now();
			emu = await startEmulator({ apiKey: API_KEY, workspaceId: WORKSPACE_ID, quiet: true });
			folder = await mkdtemp(join(tmpdir(), 'chat-memory-redis-'));
			memoryRedis = await startRedis(folder);
			queue = await startQueueMode(line, {
				credentials: [
					agentPlatformCredential(
						{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
						CREDENTIAL,
					),
					{
						id: REDIS_CREDENTIAL_ID,
						name: 'Redis (chat memory)',
						type: 'redis',
						data: { host: '127.0.0.1', port: memoryRedis.port, database: 0, password: '' },
					},
				],
				workflows: [
					loadWorkflow('queue-chat-memory', {
						...chatAgentVars(emu, CHAT_AGENT),
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
						REDIS_CREDENTIAL_ID,
					}),
				],
				activate: [WORKFLOW],
				workers: 2,
				concurrency: 1,
			});
			log(
				`n8n ${line.version} queue memory: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		});

		afterAll(async () => {
			await queue?.stop();
			await memoryRedis?.stop();
			if (folder) await rm(folder, { recursive: true, force: true });
			await emu?.stop();
			log(`n8n ${line.version} queue memory: took ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});

		const executes = () =>
			emu.requests
				.filter((r) => r.method === 'POST' && r.path === `/agents/${CHAT_AGENT}/execute`)
				.map((r) => r.body as Record<string, unknown>);

		/** One chat message to the public chat, through the webhook processor (asked again while activation has not registered it). */
		async function say(sessionId: string, chatInput: string): Promise<string> {
			for (let attempt = 0; ; attempt++) {
				const response = await fetch(`${queue!.webhook.baseUrl}/webhook/${CHAT_WEBHOOK}/chat`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
				});
				const text = await response.text();
				if (response.status === 404 && attempt < 60) {
					await sleep(500);
					continue;
				}
				expect({ status: response.status, text }).toMatchObject({ status: 200 });
				return (JSON.parse(text) as { output: string }).output;
			}
		}

		/** The worker (by index) that ran the newest execution of the workflow. */
		async function workerOfNewest(): Promise<number> {
			const [newest] = (await queue!.main.getExecutions(WORKFLOW, { limit: 1 })) as Array<{
				id: string;
			}>;
			return await waitFor(`the worker that ran execution ${newest.id}`, () => {
				const index = queue!.workers.findIndex((w) =>
					w.log().includes(`Worker finished execution ${newest.id} `),
				);
				return index >= 0 ? index : undefined;
			});
		}

		test('two messages run by different workers continue one conversation, one request a turn', async () => {
			const first = await say('queue-ada', 'My name is Ada.');
			expect(executes()).toHaveLength(1);
			expect(executes()[0].root_id).toBeUndefined();
			const rootId = [...emu.state.responses.values()].pop()!.root_id;
			const firstWorker = await workerOfNewest();
			// the worker that ran the first message stops: the second goes to the other one
			await queue!.workers[firstWorker].stop();

			const second = await say('queue-ada', 'What is my name?');
			const secondWorker = await workerOfNewest();
			expect(secondWorker).not.toBe(firstWorker);
			expect(executes()).toHaveLength(2);
			expect(executes()[1]).toMatchObject({
				root_id: rootId,
				messages: [{ role: 'user', content: 'What is my name?' }],
			});
			expect(first).not.toContain('Earlier in this conversation');
			expect(second).toContain('Earlier in this conversation you wrote: "My name is Ada."');

			// another chat session starts its own conversation
			await say('queue-bob', 'What is my name?');
			expect(executes()[2].root_id).toBeUndefined();
		});
	},
);
