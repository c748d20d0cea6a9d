/**
 * Two n8n processes on one API key, in queue mode (PostgreSQL, Redis, a main process, a webhook
 * processor that receives the calls, dev/n8n/queueMode.ts) with two `n8n worker`
 * processes (one execution at a time each, so two executions at once run in two processes), one
 * credential at its default Requests per Second (1), no setting per process. Each execution is a
 * Return All of PAGES pages of memories; the two start at the same moment.
 *
 * Under each of the emulator's limiter models, at the platform's documented 1 request a second
 * with short windows and waits (so that a line takes a few minutes at most):
 * - a fixed window of 10 per 10 s with Laravel's X-RateLimit-* headers: both executions complete,
 *   and at most a few answers are 429 (each process reads the shared Remaining and spreads it);
 * - a token bucket of 1 a second, burst 1, a 429 asking for 10 s: both complete, and together they
 *   keep at least 0.4 of the rate (collisions hold one process for the wait while the other sends).
 *
 * Run: npx jest --selectProjects e2e --runInBand --runTestsByPath test/e2e/queue-rate-limits.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	log,
	selectedLines,
	sleep,
	type N8nLine,
} from '../../dev/n8n/harness';
import { loadWorkflow } from './fixtures';
import { startQueueMode, type QueueMode } from '../../dev/n8n/queueMode';

const API_KEY = 'e2e-queue-rate-key-7d21';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credQueueRate'), name: 'Agent Platform (two processes)' };
const WORKFLOW_ID = 'queueReturnAll01';
const PAGES = 12;
const PER_PAGE = 50;

describe.each(selectedLines())(
	'n8n $line ($version) in queue mode: two workers on one API key share its rate',
	(line: N8nLine) => {
		let emu: PlatformEmulator;
		let queue: QueueMode | undefined;

		beforeAll(async () => {
			const started = Date.now();
			emu = await startEmulator({
				port: 0,
				apiKey: API_KEY,
				workspaceId: WORKSPACE_ID,
				quiet: true,
			});
			emu.seedMemories(PAGES * PER_PAGE);
			queue = await startQueueMode(line, {
				credentials: [
					agentPlatformCredential(
						{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
						{ ...CREDENTIAL, requestsPerSecond: null },
					),
				],
				workflows: [
					loadWorkflow('queue-return-all', {
						WORKFLOW_ID,
						WORKFLOW_NAME: 'Queue mode: Webhook → Memory Get Many (Return All)',
						NODE_ID: '7c1f0a52-0004-4d3b-9e00-00000000000',
						WEBHOOK_ID: '7c1f0a52-0004-4d3b-9e00-0000000000a1',
						PATH: 'queue-return-all',
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
					}),
				],
				activate: [WORKFLOW_ID],
				workers: 2,
				concurrency: 1,
			});
			// n8n registers an activated workflow's webhooks a moment later
			await sleep(3000);
			log(
				`n8n ${line.version} two workers: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		});

		afterAll(async () => {
			await queue?.stop();
			await emu?.stop();
		});

		/** Both executions at once; what the platform answered while they ran. */
		async function twoAtOnce() {
			emu.clearRequests();
			const started = Date.now();
			const answers = await Promise.all(
				[0, 1].map(() => queue!.webhook.postWebhook('queue-return-all')),
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
			for (const worker of queue!.workers)
				expect(worker.log()).toMatch(/Worker started execution \d+ /);
			return { answers, answered, refused, rate: answered / span };
		}

		test('a fixed window of 10 per 10 s with Laravel headers: both complete, hardly a 429', async () => {
			emu.setFaults({ rateLimitWindow: { limit: 10, seconds: 10 } });
			const { answers, answered, refused } = await twoAtOnce();
			for (const answer of answers) expect(answer.status).toBe(200);
			expect(answered).toBe(2 * PAGES);
			expect(refused).toBeLessThanOrEqual(4);
		}, 180_000);

		test('a token bucket of 1 a second, burst 1, a 429 asking 10 s: both complete, at least 0.4 of the rate together', async () => {
			emu.setFaults({
				rateLimitWindow: null,
				rateLimitPerSecond: 1,
				rateLimitBurst: 1,
				retryAfterSeconds: 10,
			});
			const { answers, answered, rate } = await twoAtOnce();
			for (const answer of answers) expect(answer.status).toBe(200);
			expect(answered).toBe(2 * PAGES);
			expect(rate).toBeGreaterThanOrEqual(0.4);
		}, 180_000);
	},
);
