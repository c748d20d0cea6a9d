/**
 * Two n8n processes on one API key (queue.cases.ts runs these after queue.basics.ts, on the line's
 * one set-up of queue.shared.ts): the webhook processor receives the calls and the two workers run
 * one execution each, on one credential at its default Requests per Second (1), no setting per
 * process. Each execution is a Return All of PAGES pages of memories; the two start at the same
 * moment.
 *
 * Production's limiter (a fixed window with Laravel's X-RateLimit-* headers), at 10 per 10 s: both
 * executions complete, and at most a few answers are 429 (each process reads the shared Remaining
 * and spreads it). A token bucket's 429s and their waits are the integration tests' (in one
 * process) and the timing stage's (two paces on one key, learned-pace.timing.test.ts).
 */
import { log, type N8nLine } from '../../dev/n8n/harness';
import { PAGES, QUEUE_WORKFLOWS, type Execution, type QueueSuite } from './queue.shared';

export function rateLimitCases(line: N8nLine, cluster: () => QueueSuite): void {
	describe('two workers on one API key share its rate', () => {
		let suite: QueueSuite;

		beforeAll(() => {
			suite = cluster();
		});
		afterAll(() => {
			suite?.rateEmu.resetFaults();
		});

		/** Both executions at once; what the platform answered while they ran. */
		async function twoAtOnce() {
			const { rateEmu: emu, queue } = suite;
			emu.clearRequests();
			const started = Date.now();
			const answers = await Promise.all(
				[0, 1].map(() => queue.webhook.postWebhook('queue-return-all')),
			);
			const seconds = (Date.now() - started) / 1000;
			const pages = emu.requests.filter((r) => r.path === '/memories');
			const answered = pages.filter((r) => r.status === 200).length;
			const refused = pages.filter((r) => r.status === 429).length;
			const span = pages.length ? (pages[pages.length - 1].at - pages[0].at) / 1000 + 1 : seconds;
			log(`n8n ${line.version}: webhook answers ${JSON.stringify(answers)}`);
			log(
				`n8n ${line.version}: ${answered} answered, ${refused} refused in ${seconds.toFixed(1)} s (${(answered / span).toFixed(2)} a second)`,
			);
			// each worker ran one of them: two processes, two paces
			const newest = (await suite.executions(QUEUE_WORKFLOWS.returnAll)).slice(0, 2);
			const workers = await Promise.all(newest.map((e: Execution) => suite.workerOf(e.id)));
			// a late second start leaves the first process alone on the window for a while
			const starts = newest.map((e) => Date.parse(String(e.startedAt)));
			log(
				`n8n ${line.version}: the two executions started ${Math.abs(starts[0] - starts[1])} ms apart`,
			);
			expect(new Set(workers).size).toBe(2);
			return { answers, answered, refused };
		}

		test('a fixed window of 10 per 10 s with Laravel headers: both complete, hardly a 429', async () => {
			suite.rateEmu.setFaults({ rateLimitWindow: { limit: 10, seconds: 10 } });
			const { answers, answered, refused } = await twoAtOnce();
			for (const answer of answers) expect(answer.status).toBe(200);
			expect(answered).toBe(2 * PAGES);
			expect(refused).toBeLessThanOrEqual(4);
		}, 180_000);
	});
}
