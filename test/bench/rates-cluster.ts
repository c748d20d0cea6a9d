/**
 * Case 6's cluster rows (`cluster`, see rates.ts): k n8n processes on one API key
 * (test/infra/n8n/cluster.ts: a pace each, workers of concurrency 5 pulling from one queue) run
 * 120 executions of one request each (Memory → Get Many), the credential at its default, under
 * each limiter model the platform may use. Time-scaled by four as the learned-pace rows are: the
 * platform allows 4 a second, a 429 asks 15 s, a window is 60 per 15 s, the node's numbers alike.
 *
 * Each row: the share of the rate (the ideal time ÷ the time: the executions at the rate; for the
 * window, the first 60 at once and the rest when the next opens), 429s in all and the most one
 * process got, failed executions, and the longest an execution waited (unscaled).
 */
import { PACING } from '../../nodes/AgentPlatform/transport/pace';
import { scaledPacing } from '../infra/scaledPacing';
import { runCluster } from '../infra/n8n/cluster';
import type { BenchRow, EmulatorProcess } from './common';
import { progress } from './common';
import { LATENCY_MS, type Limit } from './rates-measure';

const SCALE = 4;
const EXECUTIONS = 120;
const CONCURRENCY = 5;

const MODELS: Array<{
	name: string;
	limit: Limit;
	idealMs: number;
	target: Record<number, number>;
}> = [
	{
		name: 'the documented 429 (bucket 1/s, burst 1, 429 asks 60 s, no headers)',
		limit: { rateLimitPerSecond: SCALE, rateLimitBurst: 1, retryAfterSeconds: 60 / SCALE },
		idealMs: (EXECUTIONS * 1000) / SCALE,
		target: { 1: 0.9, 4: 0.8, 8: 0.7 },
	},
	{
		name: 'a fixed window of 60 per 60 s with Laravel headers',
		limit: { rateLimitWindow: { limit: 60, seconds: 60 / SCALE } },
		idealMs: (60 * 1000) / SCALE,
		target: { 1: 0.9, 4: 0.85, 8: 0.7 },
	},
	{
		name: 'a bucket 1/s whose 429 names the time to its next token',
		limit: { rateLimitPerSecond: SCALE, rateLimitBurst: 1 },
		idealMs: (EXECUTIONS * 1000) / SCALE,
		target: { 1: 0.9, 4: 0.7, 8: 0.7 },
	},
];

export async function clusterRows(emu: EmulatorProcess): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	const saved = { ...PACING };
	Object.assign(PACING, scaledPacing(saved, SCALE));
	try {
		for (const model of MODELS) {
			for (const processes of [1, 2, 4, 8]) {
				await emu.control('DELETE', '/faults');
				await emu.control('PUT', '/faults', { latencyMs: LATENCY_MS, ...model.limit });
				const outcome = await runCluster({
					server: emu,
					processes,
					concurrency: CONCURRENCY,
					executions: EXECUTIONS,
					parameters: { resource: 'memory', operation: 'getAll', returnAll: false, limit: 5 },
					requestsPerSecond: 1 * SCALE,
				});
				const share = model.idealMs / Math.max(outcome.ms, model.idealMs);
				const refused = outcome.processes.map((p) => p.refused);
				const total = refused.reduce((sum, n) => sum + n, 0);
				const most = Math.max(...refused);
				const measured = `${share.toFixed(2)} of the rate; ${total} × 429 (at most ${most} a process); ${outcome.failed} failed; longest wait ${((outcome.longestMs * SCALE) / 1000).toFixed(0)} s (unscaled); executions per process ${outcome.processes.map((p) => p.executions).join('/')}`;
				progress(`rates, cluster of ${processes}, ${model.name}: ${measured}`);
				const target = model.target[processes];
				rows.push({
					case: '6 Rate limits',
					figure: `${processes} process${processes === 1 ? '' : 'es'} on one key, ${EXECUTIONS} executions of one request, workers of concurrency ${CONCURRENCY}, ${model.name} (scaled ×${SCALE}): share of the rate`,
					measured,
					baseline: `${(model.idealMs / 1000).toFixed(1)} s ideal (scaled)`,
					value: share,
					target: target === undefined ? '0 failed' : `≥ ${target} of the rate, 0 failed`,
					met: outcome.failed === 0 && (target === undefined || share >= target),
				});
			}
		}
	} finally {
		Object.assign(PACING, saved);
	}
	return rows;
}
