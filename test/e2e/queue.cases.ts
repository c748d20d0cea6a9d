/**
 * Every queue-mode case of a line on one set-up (queue.shared.ts: PostgreSQL and Redis, a main
 * process, four `n8n worker` processes and a webhook processor, each n8n process with its own user
 * folder and its own copy of the package): six n8n processes a line instead of four such set-ups.
 * Run by queue.e2e.test.ts on n8n 2.x (1.x runs only the files whose behaviour differs there).
 *
 * The order matters: what stops or kills a process comes last. The chat with a memory stops the
 * worker that ran its first message and starts it again after; then the faults restart the main
 * and Redis and kill a worker. Each case counts the emulator's requests from its own start.
 */
import { log, type N8nLine } from '../../dev/n8n/harness';
import { describeEachLine } from './fixtures';
import { basicCases } from './queue.basics';
import { chatMemoryCases } from './queue.chatMemory';
import { faultCases } from './queue.faults';
import { rateLimitCases } from './queue.rateLimits';
import { startQueueSuite, type QueueSuite } from './queue.shared';

/** The queue-mode cases of n8n line `name`; skipped when E2E_N8N_LINES leaves it out. */
export function queueModeCases(name: '1.x' | '2.x'): void {
	describeEachLine([name])(
		'n8n $line ($version) in queue mode on PostgreSQL: main + four workers + webhook processor',
		(line: N8nLine) => {
			let suite: QueueSuite | undefined;
			let started = Date.now();

			beforeAll(async () => {
				started = Date.now();
				suite = await startQueueSuite(line);
				log(
					`n8n ${line.version} queue mode: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
				);
			});

			afterAll(async () => {
				const stopping = Date.now();
				await suite?.stop();
				const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
				log(
					`n8n ${line.version} queue mode: took ${seconds(started)} s, its stop ${seconds(stopping)} s`,
				);
			});

			const cluster = () => {
				if (!suite) throw new Error(`n8n ${line.version}: the queue-mode set-up did not start`);
				return suite;
			};
			basicCases(line, cluster);
			rateLimitCases(line, cluster);
			chatMemoryCases(cluster);
			faultCases(line, cluster);
		},
	);
}
