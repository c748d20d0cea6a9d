/**
 * A fault in queue mode (queue.cases.ts runs it last, on the line's one set-up of queue.shared.ts:
 * main, four workers, a webhook processor, Redis). n8n's own recoveries (Redis or the main
 * restarted) are n8n's to prove; a restart's effect on the trigger's webhook is trigger.e2e's, on
 * both lines. The package's part:
 *
 * - a worker killed (SIGKILL) while its Execute (Wait) waits on the platform: the package starts no
 *   second run; n8n fails the job as stalled, records the execution as failed and answers the
 *   webhook's caller with an error (1.x with QUEUE_WORKER_MAX_STALLED_COUNT=0, the setting
 *   docs/queue-mode.md gives: 1.x's default 1 runs a stalled job once more, the agent too); the
 *   run goes on on the platform and its result stays reachable: the platform delivers it to the
 *   Agent Platform Trigger, whose execution runs on another worker.
 *
 * n8n notices a dead worker when the job's lock expires; the set-up shortens the lock (20 s) and the
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
			const survivors = queue.workers.filter((w) => w !== victim);

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
			for (const survivor of survivors) expect(survivor.log()).not.toContain(started);

			// the run went on on the platform and was delivered to the trigger, on another worker
			const run = [...suite.emu.state.runs.values()]
				.filter((r) => r.template_id === suite.textAgent)
				.at(-1)!;
			// (deliveries of the earlier cases' runs may come in meanwhile: find this run's)
			const triggered = await waitFor('the delivery of the run to start the trigger', () =>
				triggerExecutionOf(queue, run.id),
			);
			await waitFor('a surviving worker to run it', () =>
				survivors.some((w) => w.log().includes(`Worker finished execution ${triggered.id} `)),
			);
			expect(triggered.item).toMatchObject({ id: run.id, status: 'succeeded' });
			expect(suite.runStarts()).toHaveLength(1);
		});
	});
}
