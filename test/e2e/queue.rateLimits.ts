/**
 * Four n8n processes on one API key (queue.cases.ts runs these after queue.basics.ts, on the line's
 * one set-up of queue.shared.ts): the webhook processor receives the calls and the four workers
 * (one execution at a time each, as n8n pulls jobs: whoever is free) run them, on one credential
 * at its default Requests per Second (1), no setting per process. Each execution is one request
 * (a Return All of one page); all start at the same moment.
 *
 * - Production's likeliest limiter, a fixed window with Laravel's X-RateLimit-* headers (10 per
 *   10 s here): the cluster spends each window as one process would, nothing fails, hardly a 429.
 * - The documented 429 without headers (a bucket of one request a second), its wait shortened
 *   from 60 s to 15 s so that the case fits CI: nothing fails, at most three 429s a worker, and
 *   the share of the rate that a hold per process refused at the start allows (the three workers
 *   refused at once keep their executions for one hold: docs/rate-limits.md gives the bound).
 * The share: the ideal time (the executions at the platform's rate, a window's worth at once) ÷
 * the time from the first request to the last answer.
 */
import { log, type N8nLine } from '../../dev/n8n/harness';
import { clusterLogTails } from '../../dev/n8n/queueMode';
import { QUEUE_WORKFLOWS, type Execution, type QueueSuite } from './queue.shared';

const WORKERS = 4;

export function rateLimitCases(line: N8nLine, cluster: () => QueueSuite): void {
	describe(`${WORKERS} workers on one API key share its rate`, () => {
		let suite: QueueSuite;

		beforeAll(() => {
			suite = cluster();
			// one page of memories: one request an execution
			suite.rateEmu.state.memories.clear();
			suite.rateEmu.seedMemories(5);
		});
		afterAll(() => {
			suite?.rateEmu.resetFaults();
		});

		/** `count` executions at once; what the platform answered while they ran. */
		async function allAtOnce(count: number) {
			const { rateEmu: emu, queue } = suite;
			emu.clearRequests();
			const answers = await Promise.all(
				Array.from({ length: count }, () => queue.webhook.postWebhook('queue-return-all')),
			).catch((error: unknown) => {
				// a call unanswered for its 2 minutes: what the cluster's processes logged meanwhile and
				// when the platform answered what, in the message (jest prints only the frames of a stack)
				const first = emu.requests[0]?.at ?? 0;
				const seen = emu.requests.map((r) => `${((r.at - first) / 1000).toFixed(1)} ${r.status}`);
				throw new Error(
					`${String(error)}; the platform's answers (s from the first, status): ${seen.join(', ')}\n${clusterLogTails(queue)}`,
					{ cause: error },
				);
			});
			const pages = emu.requests.filter((r) => r.path === '/memories');
			const answered = pages.filter((r) => r.status === 200);
			const refused = pages.filter((r) => r.status === 429).length;
			const ms = answered.length ? answered[answered.length - 1].at - pages[0].at : 0;
			const newest = (await suite.executions(QUEUE_WORKFLOWS.returnAll)).slice(0, count);
			const workers = await Promise.all(newest.map((e: Execution) => suite.workerOf(e.id)));
			const perWorker = Array.from(
				{ length: WORKERS },
				(_, i) => workers.filter((w) => w === i).length,
			);
			log(
				`n8n ${line.version}: ${count} executions, ${answered.length} answered, ${refused} refused (429) in ${(ms / 1000).toFixed(1)} s; executions per worker ${perWorker.join('/')}`,
			);
			for (const answer of answers) expect(answer.status).toBe(200);
			expect(newest.map((e) => e.status)).toEqual(newest.map(() => 'success'));
			expect(answered).toHaveLength(count);
			return { ms, refused };
		}

		test('a fixed window of 10 per 10 s with Laravel headers: spent as one process would, nothing failed', async () => {
			suite.rateEmu.setFaults({ rateLimitWindow: { limit: 10, seconds: 10 } });
			const { ms, refused } = await allAtOnce(24);
			// 10 at once, 10 when the next window opens, 4 in the third: 20 s and a round trip
			const share = 20_000 / Math.max(ms, 20_000);
			log(`n8n ${line.version}: the window: ${share.toFixed(2)} of the rate`);
			expect(share).toBeGreaterThanOrEqual(0.85);
			expect(refused).toBeLessThanOrEqual(2 * WORKERS);
		}, 180_000);

		test('a bucket of one request a second whose 429 asks 15 s: nothing failed, at most three 429s a worker', async () => {
			suite.rateEmu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1, retryAfterSeconds: 15 });
			const count = 16;
			const { ms, refused } = await allAtOnce(count);
			const share = (count * 1000) / Math.max(ms, count * 1000);
			log(`n8n ${line.version}: the bucket: ${share.toFixed(2)} of the rate`);
			expect(refused).toBeLessThanOrEqual(3 * WORKERS);
			// three workers refused at the start hold their execution for 15 s, one more hold for one
			// that resumes within another's turn: at least 16 s of 40 at worst
			expect(share).toBeGreaterThanOrEqual(0.35);
		}, 240_000);
	});
}
