/**
 * n8n in queue mode as n8n supports it (dev/n8n/queueMode.ts): PostgreSQL and Redis, a main
 * process, two `n8n worker` processes and a webhook processor (`n8n webhook`), each n8n process with
 * its own user folder and its own copy of the package, binary data in the line's queue-mode default.
 * One set-up per n8n line, shared by the cases below.
 *
 * Production webhooks go to the webhook processor (every process's webhook URL is its address):
 * Webhook → Agent → Execute (Wait), Webhook (a file) → File → Upload, a public Chat Trigger in
 * streaming mode → Execute (Stream), and the Agent Platform Trigger, whose webhook the main
 * registers on the platform with the webhook processor's address. For each execution n8n records,
 * the webhook processor's log says *Enqueued execution N* and a worker's *Worker started execution
 * N* and *Worker finished execution N* (n8n's own info-level lines, 1.x and 2.x); the main runs none.
 *
 * Run: npx jest --selectProjects e2e --runInBand --runTestsByPath test/e2e/queue.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { createHash, randomBytes } from 'node:crypto';

import type { RecordedMultipart } from '../../dev/emulator';
import { log, selectedLines, waitFor, type N8nLine } from '../../dev/n8n/harness';
import { chatAgentVars, loadWorkflow, postToStreamingWebhook } from './fixtures';
import { streamedPieces } from './fixtures';
import {
	QUEUE_WORKFLOWS,
	startQueueSuite,
	triggerExecutionOf,
	type QueueSuite,
} from './queue.shared';

const CHAT_AGENT = 1;
const WORKFLOWS = { ...QUEUE_WORKFLOWS, upload: 'queueUpload00001', chat: 'queueChatStream1' };
const CHAT_WEBHOOK_ID = '7c1f0a52-0005-4d3b-9e00-0000000000a1';

describe.each(selectedLines())(
	'n8n $line ($version) in queue mode on PostgreSQL: main + two workers + webhook processor',
	(line: N8nLine) => {
		let suite: QueueSuite;
		let started = Date.now();

		beforeAll(async () => {
			started = Date.now(); // describe.each collects both lines at once
			suite = await startQueueSuite(line, {
				apiKey: 'e2e-queue-key-51c9e0',
				timeScale: 20,
				more: (vars, emu) => [
					loadWorkflow('queue-upload', vars),
					loadWorkflow('queue-chat-stream', { ...vars, ...chatAgentVars(emu, CHAT_AGENT) }),
				],
				activate: [WORKFLOWS.upload, WORKFLOWS.chat],
			});
			log(
				`n8n ${line.version} queue mode: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		});

		afterAll(async () => {
			await suite?.stop();
			log(`n8n ${line.version} queue mode: took ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});

		/** n8n's own log lines: the webhook processor enqueued it, a worker started and finished it. */
		async function expectRunByWorker(executionId: string): Promise<void> {
			const { queue } = suite;
			const finished = `Worker finished execution ${executionId} `;
			await waitFor(`a worker to log the end of execution ${executionId}`, () =>
				queue.workers.some((w) => w.log().includes(finished)),
			);
			const worker = queue.workers.find((w) => w.log().includes(finished))!;
			expect(worker.log()).toContain(`Worker started execution ${executionId} `);
			expect(queue.webhookProcess.log()).toContain(`Enqueued execution ${executionId} `);
			expect(queue.main.logText()).not.toContain(`Worker started execution ${executionId} `);
		}

		test('the main registers the trigger webhook once, with the webhook processor address', async () => {
			await waitFor(
				'the trigger webhook on the platform',
				() => suite.triggerWebhooks().length > 0,
			);
			expect(suite.triggerWebhooks()).toHaveLength(1);
		});

		test('Webhook → File → Upload: a worker streams the file the webhook processor received', async () => {
			const bytes = randomBytes(256 * 1024 + 17);
			// n8n answers 404, and runs nothing, until the webhook processor has registered the
			// activated workflow's webhook (seen once on 2.41.1 with the workflow just activated)
			let response: Response;
			let text: string;
			for (let attempt = 1; ; attempt++) {
				response = await fetch(`${suite.queue.webhook.baseUrl}/webhook/queue-upload`, {
					method: 'POST',
					headers: {
						'content-type': 'application/octet-stream',
						'content-disposition': 'attachment; filename="queue notes.txt"',
					},
					body: bytes,
				});
				text = await response.text();
				if (response.status !== 404 || attempt >= 40) break;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
			expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: 200 });
			const file = JSON.parse(text) as { id: number; filename: string; bytes: number };
			expect(file).toMatchObject({ filename: 'queue notes.txt', bytes: bytes.length });
			const upload = suite.emu.requests.find(
				(r) => r.method === 'POST' && r.path === '/files' && r.status === 200,
			)!;
			const received = (upload.body as RecordedMultipart).files[0];
			expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

			const [execution] = await suite.finishedExecutions(WORKFLOWS.upload, 1);
			await expectRunByWorker(execution.id);
		});

		test('Webhook → Execute (Wait), and the trigger delivery its finished run sends to the webhook processor: both run on workers', async () => {
			const answer = await suite.queue.webhook.postWebhook(
				'queue-execute',
				{ topic: 'queue mode' },
				{ registeredWithinMs: 20_000 },
			);
			expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 200 });
			const run = answer.body as { id: number; status: string; output: string };
			expect(run.status).toBe('succeeded');
			expect(run.output).toContain('queue mode');
			expect(suite.runStarts()).toHaveLength(1);

			const [execution] = await suite.finishedExecutions(WORKFLOWS.execute, 1);
			await expectRunByWorker(execution.id);

			const triggered = await waitFor('the delivery of the run to start the trigger', () =>
				triggerExecutionOf(suite.queue, run.id),
			);
			await expectRunByWorker(triggered.id);
			expect(triggered.item).toMatchObject({ id: run.id, status: 'succeeded' });
		});

		test('a forged delivery to the webhook processor (wrong secret) gets 401 and starts nothing', async () => {
			const before = (await suite.executions(WORKFLOWS.trigger)).length;
			const payload = JSON.stringify({ id: 1, status: 'succeeded', output: 'forged' });
			for (const url of [suite.triggerUrl(), `${suite.triggerUrl()}?secret=wrong`]) {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: payload,
				});
				expect({ url, status: response.status }).toEqual({ url, status: 401 });
			}
			// a right delivery after them is the only new execution
			const [webhook] = suite.triggerWebhooks();
			const right = await fetch(webhook.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: 2, status: 'succeeded', output: 'a real delivery' }),
			});
			expect(right.status).toBe(200);
			const after = await suite.finishedExecutions(WORKFLOWS.trigger, before + 1);
			expect(after).toHaveLength(before + 1);
		});

		test('a public Chat Trigger streaming → Execute (Stream) through the webhook processor: the pieces arrive over the run', async () => {
			// the platform writes the answer in 8 events over 60 s of its clock (3 s here)
			suite.emu.configureAgent(CHAT_AGENT, { executionSeconds: 60 });
			suite.emu.clearRequests();
			const response = await postToStreamingWebhook(
				suite.queue.webhook.baseUrl,
				`${CHAT_WEBHOOK_ID}/chat`,
				{
					action: 'sendMessage',
					sessionId: `queue-${line.line}`,
					chatInput: 'Tell me about otters',
				},
			);
			expect(response.status).toBe(200);
			const pieces = await streamedPieces(response);
			const [execution] = await suite.finishedExecutions(WORKFLOWS.chat, 1);
			await expectRunByWorker(execution.id);
			const run = [...suite.emu.state.responses.values()].filter((r) => r.via === 'stream').at(-1)!;
			log(
				`n8n ${line.version} queue mode: the chat's answer came in ${pieces.length} pieces over ${pieces.length ? pieces[pieces.length - 1].at - pieces[0].at : 0} ms`,
			);
			expect(pieces.length).toBeGreaterThanOrEqual(3);
			expect(pieces.map((p) => p.text).join('')).toBe(run.output);
			// pieces over the run, not all at its end: the first one reached the caller before the
			// platform wrote its last event
			const sent = suite.emu.requests.find((r) => r.eventsSentAt?.length)!.eventsSentAt!;
			expect(pieces[0].at).toBeLessThan(sent[sent.length - 1]);
		});
	},
);
