/**
 * The queue-mode cases of the webhook processor, the workers and the trigger (queue.cases.ts runs
 * them first, on the line's one set-up of queue.shared.ts). Production webhooks go to the webhook
 * processor (every process's webhook URL is its address): Webhook → Agent → Execute (Wait),
 * Webhook (a file) → File → Upload, a public Chat Trigger in streaming mode → Execute (Stream),
 * and the Agent Platform Trigger, whose webhook the main registers on the platform with the
 * webhook processor's address. For each execution n8n records, the webhook processor's log says
 * *Enqueued execution N* and a worker's *Worker started execution N* and *Worker finished
 * execution N* (n8n's own info-level lines, 1.x and 2.x); the main runs none.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { RecordedMultipart } from '../../dev/emulator';
import { log, waitFor, type N8nLine } from '../../dev/n8n/harness';
import { postToStreamingWebhook, streamedPieces } from './fixtures';
import {
	CHAT_AGENT,
	CHAT_WEBHOOKS,
	QUEUE_WORKFLOWS as WORKFLOWS,
	triggerExecutionOf,
	type QueueSuite,
} from './queue.shared';

export function basicCases(line: N8nLine, cluster: () => QueueSuite): void {
	describe('the webhook processor, the workers and the trigger', () => {
		let suite: QueueSuite;

		beforeAll(() => {
			suite = cluster();
		});
		beforeEach(() => {
			// each case counts the requests from its own start
			suite.emu.clearRequests();
		});
		afterAll(() => {
			// the chat agent's runs as long as before the streamed chat's case
			suite?.emu.configureAgent(CHAT_AGENT, { executionSeconds: undefined });
		});

		/** n8n's own log lines: the webhook processor enqueued it, a worker started and finished it. */
		async function expectRunByWorker(executionId: string): Promise<void> {
			const { queue } = suite;
			const worker = queue.workers[await suite.workerOf(executionId)];
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
			const response = await postToStreamingWebhook(
				suite.queue.webhook.baseUrl,
				`${CHAT_WEBHOOKS.stream}/chat`,
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
			const run = [...suite.emu.state.runs.values()].filter((r) => r.via === 'stream').at(-1)!;
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
	});
}
