/**
 * Faults in queue mode (queue.cases.ts runs them last, on the line's one set-up of
 * queue.shared.ts: main, two workers, a webhook processor, Redis), in this order:
 *
 * - the main restarted: the platform still has exactly one webhook for the trigger (none created:
 *   1.x runs the trigger's checkExists again on start, 2.41 none of its webhook methods), and a
 *   delivery still starts the workflow;
 * - Redis restarted between two executions (empty: no persistence): n8n's processes reconnect and
 *   the next Webhook → Execute (Wait) runs;
 * - a worker killed (SIGKILL) while its Execute (Wait) waits on the platform: the package starts no
 *   second run; n8n fails the job as stalled, records the execution as failed and answers the
 *   webhook's caller with an error (1.x with QUEUE_WORKER_MAX_STALLED_COUNT=0, the setting
 *   docs/queue-mode.md gives: 1.x's default 1 runs a stalled job once more, the agent too); the
 *   run goes on on the platform and its result stays reachable: the platform delivers it to the
 *   Agent Platform Trigger, whose execution runs on the other worker.
 *
 * n8n notices a dead worker when the job's lock expires; the set-up shortens the lock (5 s) and the
 * stall check (2 s) from their minutes, and 2.x then rechecks for its own 30 s before recording.
 */
import { log, waitFor, type N8nLine } from '../../dev/n8n/harness';
import type { QueueMode } from '../../dev/n8n/queueMode';
import { QUEUE_WORKFLOWS as WORKFLOWS, triggerExecutionOf, type QueueSuite } from './queue.shared';

export function faultCases(line: N8nLine, cluster: () => QueueSuite): void {
	describe('faults', () => {
		let suite: QueueSuite;
		let queue: QueueMode;

		beforeAll(() => {
			suite = cluster();
			queue = suite.queue;
		});

		async function executeAndWait(topic: string) {
			return await queue.webhook.postWebhook(
				'queue-execute',
				{ topic },
				{ registeredWithinMs: 20_000 },
			);
		}

		test('the main restarted: the platform still has one webhook for the trigger, none created; a delivery still starts it', async () => {
			const [before] = suite.triggerWebhooks();
			suite.emu.clearRequests();
			await queue.main.stop();
			const logBefore = queue.main.logText().length;
			await queue.main.start();
			// n8n prints this once its start-up activation is done (1.x: every active workflow's
			// trigger again, checkExists first; 2.41: only triggers without a webhook, from its
			// publication records, so the trigger's webhook methods do not run at all)
			await waitFor('the restarted main to finish its start', () =>
				queue.main.logText().slice(logBefore).includes('Editor is now accessible'),
			);
			const checks = suite.emu.requests.filter(
				(r) => r.method === 'GET' && r.path === `/agents/${suite.textAgent}/webhooks`,
			);
			log(
				`n8n ${line.version}: the restarted main checked the trigger's webhook ${checks.length} time(s)`,
			);
			if (line.line === '1.x') expect(checks.length).toBeGreaterThan(0);
			expect(suite.triggerWebhooks()).toEqual([before]);
			expect(
				suite.emu.requests.filter(
					(r) => r.method === 'POST' && r.path === `/agents/${suite.textAgent}/webhooks`,
				),
			).toEqual([]);

			const count = (await suite.executions(WORKFLOWS.trigger)).length;
			const delivered = await fetch(before.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: 7, status: 'succeeded', output: 'after the restart' }),
			});
			expect(delivered.status).toBe(200);
			await waitFor(
				'the delivery to run',
				async () => (await suite.executions(WORKFLOWS.trigger)).length > count,
			);
		});

		test('Redis restarted between two executions: the next one runs', async () => {
			const first = await executeAndWait('before the Redis restart');
			expect(first).toMatchObject({ status: 200, body: { status: 'succeeded' } });
			await queue.redis.restart();
			const second = await executeAndWait('after the Redis restart');
			expect(second).toMatchObject({ status: 200, body: { status: 'succeeded' } });
			expect(String((second.body as { output: string }).output)).toContain(
				'after the Redis restart',
			);
		});

		test('a worker killed during an Execute (Wait): no second run; n8n records the execution as failed; the run result reaches the trigger', async () => {
			// a run of 400 s on the platform's clock (20 s here): time to kill its worker on a busy machine
			suite.emu.configureAgent(suite.textAgent, { executionSeconds: 400 });
			suite.emu.clearRequests();
			const executedBefore = new Set((await suite.executions(WORKFLOWS.execute)).map((e) => e.id));
			const answer = executeAndWait('a worker killed');
			await waitFor('the platform run to start', () => suite.runStarts().length === 1);
			const execution = await waitFor('the execution to be running', async () =>
				(await suite.executions(WORKFLOWS.execute)).find((e) => !executedBefore.has(e.id)),
			);
			const started = `Worker started execution ${execution.id} `;
			const victim = await waitFor('the worker running it', () =>
				queue.workers.find((w) => w.log().includes(started)),
			);
			await victim.kill();
			const survivor = queue.workers.find((w) => w !== victim)!;

			const { status, body } = await answer;
			log(
				`n8n ${line.version}: the caller of the killed execution got ${status} ${JSON.stringify(body)}`,
			);
			expect(status).toBeGreaterThanOrEqual(500);
			const recorded = await waitFor(
				'n8n to record the execution',
				async () =>
					(await suite.executions(WORKFLOWS.execute)).find(
						(e) => e.id === execution.id && !['running', 'new'].includes(e.status),
					),
				{ timeoutMs: 120_000, intervalMs: 500 },
			);
			const [failed] = (await queue.main.getExecutions(WORKFLOWS.execute, { limit: 1 })) as Array<{
				data?: { resultData?: { error?: { message?: string } } };
			}>;
			log(
				`n8n ${line.version}: the killed execution is recorded as ${recorded.status}: ${failed.data?.resultData?.error?.message}`,
			);
			expect(recorded.status).toBe('error');
			expect(survivor.log()).not.toContain(started);

			// the run went on on the platform and was delivered to the trigger, on the other worker
			const run = [...suite.emu.state.responses.values()]
				.filter((r) => r.template_id === suite.textAgent)
				.at(-1)!;
			// (the deliveries of the Redis case's runs may come in meanwhile: find this run's)
			const triggered = await waitFor('the delivery of the run to start the trigger', () =>
				triggerExecutionOf(queue, run.id),
			);
			await waitFor('the surviving worker to run it', () =>
				survivor.log().includes(`Worker finished execution ${triggered.id} `),
			);
			expect(triggered.item).toMatchObject({ id: run.id, status: 'succeeded' });
			expect(suite.runStarts()).toHaveLength(1);
		});
	});
}
