/**
 * Case 7, n8n scaled out on one key: n8n in queue mode as n8n supports it (dev/n8n/queueMode.ts:
 * PostgreSQL, Redis, a main process, two `n8n worker` processes running one execution at a time each
 * and a webhook processor), one credential at its default Requests per Second, no setting per
 * process. Two callers start a workflow through the webhook processor one execution after another
 * for five minutes (one minute with --quick), so that both workers always have one running:
 *
 *   Webhook → Memory → Get Many (Return All, PAGES pages) → Code (EXECUTES items) → Agent → Execute (Wait for Completion)
 *
 * The executions' requests come from the workers (the main sends the trigger registrations, the
 * webhook processor none: it only hands each call to the queue); the four processes share the key.
 *
 * Under each of the emulator's limiter models at the platform's rate of 1 request a second:
 * - a fixed window of 60 per 60 s with Laravel's X-RateLimit-* headers: together at least 0.9 of
 *   the rate, at most 3 % of the answers 429;
 * - a token bucket of 1 a second, burst 1, a 429 asking for 60 s: together at least 0.5 of the rate
 *   (two processes that do not know of each other collide within one token's time, and each 429
 *   holds that process for 60 s while the other sends).
 * No item may fail. What the platform answered comes from the emulator's own record: the rate is
 * the answers that were not 429 from the first request to the end of the callers' time, ÷ 1/s;
 * the share of 429s counts every answer, those of the executions still running at the end too.
 *
 * The emulator's clock runs --time-scale times faster (default 20), which only shortens the agent's
 * 5 s runs (the limiters run on real time). One n8n line, the newest selected: five minutes per
 * limiter model is long enough for a benchmark.
 */
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	selectedLines,
	sleep,
	type N8nLine,
} from '../../dev/n8n/harness';
import type { EmulatorFaults } from '../../dev/emulator/types';
import { startQueueMode, type QueueMode } from '../../dev/n8n/queueMode';
import type { BenchOptions, BenchRow } from './common';
import { progress } from './common';

const TEXT_AGENT = 3;
const PAGES = 5;
const PER_PAGE = 50;
const EXECUTES = 3;
const RATE = 1;
const CREDENTIAL = {
	id: fixtureId('credBenchQueue'),
	name: 'Agent Platform (bench, two processes)',
};
const WORKFLOW_ID = 'benchQueueMix001';
const PATH = 'bench-queue-mix';

function workflow() {
	const credentials = { agentPlatformApi: CREDENTIAL };
	const node = (index: number, name: string, type: string, parameters: object, extra = {}) => ({
		id: `7c1f0a52-0007-4d3b-9e00-00000000000${index}`,
		name,
		type,
		typeVersion: type === 'n8n-nodes-base.webhook' || type === 'n8n-nodes-base.code' ? 2 : 1,
		position: [index * 220, 0],
		parameters,
		...extra,
	});
	const nodes = [
		node(
			1,
			'Webhook',
			'n8n-nodes-base.webhook',
			{
				httpMethod: 'POST',
				path: PATH,
				responseMode: 'lastNode',
				responseData: 'allEntries',
				options: {},
			},
			{ webhookId: '7c1f0a52-0007-4d3b-9e00-0000000000a1' },
		),
		node(
			2,
			'Get Many',
			'n8n-nodes-agent-platform.agentPlatform',
			{ resource: 'memory', operation: 'getAll', returnAll: true },
			{ credentials },
		),
		node(3, 'Items', 'n8n-nodes-base.code', {
			jsCode: `return Array.from({ length: ${EXECUTES} }, (_, i) => ({ json: { topic: 'queue bench ' + $execution.id + ' ' + i + ' of ' + $input.all().length } }));`,
		}),
		node(
			4,
			'Execute',
			'n8n-nodes-agent-platform.agentPlatform',
			{
				resource: 'agent',
				operation: 'execute',
				agentId: { __rl: true, mode: 'id', value: String(TEXT_AGENT) },
				responseMode: 'wait',
				options: {
					answersJson: "={{ JSON.stringify({ topic: $json.topic, tone: 'formal' }) }}",
				},
			},
			{ credentials },
		),
	];
	const next = (from: string, to: string) => ({
		[from]: { main: [[{ node: to, type: 'main', index: 0 }]] },
	});
	return {
		id: WORKFLOW_ID,
		name: 'Bench: two processes, Return All then Execute',
		nodes,
		connections: {
			...next('Webhook', 'Get Many'),
			...next('Get Many', 'Items'),
			...next('Items', 'Execute'),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

interface ModelResult {
	executions: number;
	failed: string[];
	answered: number;
	refused: number;
	rate: number;
	spanSeconds: number;
	/** Executions each worker started (from its log). */
	perWorker: number[];
}

/** Two callers, one execution after another each, for `durationMs`; what the emulator recorded. */
async function runModel(
	queue: QueueMode,
	emu: PlatformEmulator,
	faults: Partial<EmulatorFaults>,
	durationMs: number,
): Promise<ModelResult> {
	emu.setFaults(faults);
	emu.clearRequests();
	const startedBefore = queue.workers.map((w) => started(w.log()));
	const failed: string[] = [];
	let executions = 0;
	const deadline = Date.now() + durationMs;
	await Promise.all(
		[0, 1].map(async (caller) => {
			while (Date.now() < deadline) {
				const answer = await queue.webhook.postWebhook(PATH);
				executions++;
				const items = Array.isArray(answer.body) ? (answer.body as Array<{ status?: string }>) : [];
				const succeeded = items.filter((item) => item.status === 'succeeded').length;
				if (answer.status !== 200 || succeeded !== EXECUTES) {
					if (!failed.length) progress(`queue: an execution failed: ${JSON.stringify(answer)}`);
					failed.push(
						`caller ${caller}: HTTP ${answer.status}, ${succeeded} of ${EXECUTES} items succeeded: ${JSON.stringify(answer.body).slice(0, 200)}`,
					);
				}
			}
		}),
	);
	const all = emu.requests;
	const first = all[0]?.at ?? deadline;
	const spanSeconds = Math.max(1, (deadline - first) / 1000);
	const answered = all.filter((r) => r.status !== 429 && r.at <= deadline).length;
	return {
		executions,
		failed,
		answered: all.filter((r) => r.status !== 429).length,
		refused: all.filter((r) => r.status === 429).length,
		rate: answered / spanSeconds,
		spanSeconds,
		perWorker: queue.workers.map((w, i) => started(w.log()) - startedBefore[i]),
	};
}

/** How many executions a worker's log says it started. */
function started(log: string): number {
	return (log.match(/Worker started execution \d+ /g) ?? []).length;
}

function row(
	line: N8nLine,
	model: string,
	result: ModelResult,
	minRate: number,
	maxRefused: number | undefined,
	note: string,
): BenchRow {
	const total = result.answered + result.refused;
	const share = total ? result.refused / total : 0;
	const minutes = (result.spanSeconds / 60).toFixed(1);
	return {
		case: '7 Queue mode',
		figure: `n8n ${line.version} queue mode on PostgreSQL (main, two workers, webhook processor), one key, credential at default, ${minutes} min of Return All + Execute: ${model}: answers per second together ÷ R`,
		measured: `${result.rate.toFixed(2)}/s; ${result.executions} executions (${result.perWorker.join(' + ')} per worker), ${result.failed.length} failed, ${result.refused}/${total} × 429 (${(100 * share).toFixed(1)} %)`,
		baseline: `R = ${RATE}/s`,
		value: result.rate / RATE,
		target: `≥ ${minRate} R${maxRefused === undefined ? '' : `, ≤ ${maxRefused} % 429`}, 0 failed`,
		met:
			result.rate / RATE >= minRate &&
			(maxRefused === undefined || 100 * share <= maxRefused) &&
			result.failed.length === 0,
		note: result.failed.length ? `${note}; first failure: ${result.failed[0]}` : note,
	};
}

export async function benchQueue(options: BenchOptions): Promise<BenchRow[]> {
	const line = selectedLines().at(-1)!;
	const durationMs = (options.quick ? 1 : 5) * 60_000;
	const emu = await startEmulator({
		port: 0,
		apiKey: 'bench-queue-key',
		timeScale: options.timeScale,
		seed: { memories: PAGES * PER_PAGE },
		quiet: true,
	});
	emu.configureAgent(TEXT_AGENT, { executionSeconds: 5 });
	let queue: QueueMode | undefined;
	const rows: BenchRow[] = [];
	try {
		queue = await startQueueMode(line, {
			credentials: [agentPlatformCredential(emu, { ...CREDENTIAL, requestsPerSecond: null })],
			workflows: [workflow()],
			activate: [WORKFLOW_ID],
			workers: 2,
			concurrency: 1,
		});
		// n8n registers an activated workflow's webhooks a moment later
		await sleep(3000);
		const common = `${PAGES} pages and ${EXECUTES} executes (5 s runs, time scale ${options.timeScale}) an execution; rate = answers that were not 429 from the first request to the end of the ${durationMs / 60_000} min ÷ that time; the 429 share counts the executions finishing after it too`;

		const window = await runModel(
			queue,
			emu,
			{ rateLimitWindow: { limit: 60, seconds: 60 } },
			durationMs,
		);
		progress(`queue: fixed window: ${JSON.stringify({ ...window, failed: window.failed.length })}`);
		rows.push(row(line, 'fixed window 60 per 60 s, Laravel headers', window, 0.9, 3, common));

		const bucket = await runModel(
			queue,
			emu,
			{
				rateLimitWindow: null,
				rateLimitPerSecond: 1,
				rateLimitBurst: 1,
				retryAfterSeconds: 60,
			},
			durationMs,
		);
		progress(`queue: token bucket: ${JSON.stringify({ ...bucket, failed: bucket.failed.length })}`);
		rows.push(
			row(
				line,
				'token bucket 1/s, burst 1, retry_after 60 s',
				bucket,
				0.5,
				undefined,
				`${common}; bounded by collisions: the two processes do not know of each other, so both send within one token's time now and then, and each 429 holds that process for 60 s while the other sends (${bucket.refused} × 429, executions per worker ${bucket.perWorker.join(' and ')})`,
			),
		);
	} finally {
		await queue?.stop();
		await emu.stop();
	}
	return rows;
}
