/**
 * Case 6, rate limits: the node in-process (test/infra/n8n/) against the emulator in a process
 * of its own, each row under one of the emulator's limiter models, the credential's Requests per
 * Second set as a user would for that platform.
 *
 * Each row is a ratio against the limit's ideal time, measured in the same run: the schedule a
 * client that knew the limit exactly would keep (a bucket of R with burst B: the first B at once,
 * then one every 1/R s; a fixed window of L per W s opened by the first request: L at the start
 * of each window), plus one round trip measured against the same emulator just before the row.
 *
 *   - Get Many over 30 pages (the paging of Return All, with a Limit of 30 pages), bucket R = 1, burst 1;
 *   - Return All, 150 pages, fixed window 60 per 60 s (two full windows plus the rest);
 *   - 20 items of Agent → Execute (Start Only), Batch Size 5, R = 2;
 *   - two executions at once, one credential, R = 1: pages answered per second together ÷ R;
 *   - R = 20, burst 20, Get Many over 100 pages: pages per second ÷ R.
 *
 * The learned pace, time-scaled by SCALE = 4 so that the bench stays short: the platform allows 4
 * a second where production allows 1, a 429 asks for 15 s where production asks for 60, a window
 * is 60 per 15 s, and the node's documented rate and window (PACING) are scaled alike:
 *
 *   - retry60: Return All, 12 pages, bucket at the platform rate, burst 1, the 429 asking 60 s
 *     (scaled), credential at 2, 10 and 1000 (scaled): time ÷ (60 s + 12 s) scaled, refused requests;
 *   - nexttoken: the same, 60 pages, the 429 asking the time to the next token: ÷ ideal, % 429;
 *   - sharedwindow: two pacers (two paces on one emulator key, in one process: two Base URLs naming
 *     the same emulator; not two n8n processes), each a Return All of 100 pages, fixed window
 *     60 per 60 s (scaled) with Laravel's headers: answers per second together ÷ the rate, % 429;
 *   - sharedbucket: the same two pacers, token bucket at the rate, burst 1, 429 asking 60 s (scaled).
 *
 * Interactive first (rates-interactive.ts): chatbeside, a chat message beside a 40-page paging at
 * R = 1; chatwaiting, the same beside a Return All whose caller waits (executions in rotation); chatsminute, ten chat messages a minute for five minutes beside a 300-page Return All.
 *
 * Cluster (rates-cluster.ts): k = 1, 2, 4, 8 processes on one key, 120 executions, each limiter model.
 *
 * BENCH_RATES=bucket1,window,execute,two,bucket20,retry60,nexttoken,sharedwindow,sharedbucket,
 * chatbeside,chatwaiting,chatsminute picks rows (all by default); cluster only when named.
 */
import type { INodeParameters } from 'n8n-workflow';
import { byId } from '../infra/n8n/credentials';
import type { BenchOptions, BenchRow } from './common';
import { progress, seconds, startEmulatorProcess } from './common';
import {
	PER_PAGE,
	LATENCY_MS,
	returnAll,
	roundTripMs,
	underLimit,
	percent,
	describe,
} from './rates-measure';
import { interactiveRows } from './rates-interactive';
import { learnedPaceRows } from './rates-learned';
import { clusterRows } from './rates-cluster';

export async function benchRates(options: BenchOptions): Promise<BenchRow[]> {
	const only = (process.env.BENCH_RATES ?? '').split(',').filter(Boolean);
	const want = (name: string) => only.length === 0 || only.includes(name);
	const emu = await startEmulatorProcess([
		'--seed-memories',
		String(150 * PER_PAGE),
		'--latency',
		String(LATENCY_MS),
	]);
	const rows: BenchRow[] = [];
	const memories = 150 * PER_PAGE;
	try {
		// module loading and JIT, untimed
		await underLimit(emu, {}, [
			{ parameters: { ...returnAll, returnAll: false, limit: 10 }, requestsPerSecond: 100_000 },
		]);

		if (want('bucket1')) {
			const rtt = await roundTripMs(emu);
			const pages = 30;
			const parameters = {
				resource: 'memory',
				operation: 'getAll',
				returnAll: false,
				limit: pages * PER_PAGE,
			};
			const outcome = await underLimit(emu, { rateLimitPerSecond: 1, rateLimitBurst: 1 }, [
				{ parameters, requestsPerSecond: 1 },
			]);
			const ideal = (pages - 1) * 1000 + rtt;
			const total = outcome.answered + outcome.refused;
			progress(`rates, bucket R=1: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `Get Many over ${pages} pages (Limit ${pages * PER_PAGE}), token bucket R = 1, burst 1 ÷ ideal`,
				measured: describe(outcome),
				baseline: seconds(ideal / 1000),
				value: outcome.ms / ideal,
				target: '≤ 1.10×, 0 failed, ≤ 3 % 429',
				met:
					outcome.ms / ideal <= 1.1 && outcome.failed === 0 && percent(outcome.refused, total) <= 3,
			});
		}

		if (want('window')) {
			const rtt = await roundTripMs(emu);
			const pages = 150;
			const parameters = { ...returnAll };
			const outcome = await underLimit(emu, { rateLimitWindow: { limit: 60, seconds: 60 } }, [
				{ parameters, requestsPerSecond: 1 },
			]);
			// windows open at 0, 60 and 120 s; the last 30 pages go at 120 s
			const ideal = Math.floor((pages - 1) / 60) * 60_000 + rtt;
			const total = outcome.answered + outcome.refused;
			progress(`rates, fixed window 60/60 s: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `Return All, ${pages} pages, fixed window 60 per 60 s ÷ ideal`,
				measured: describe(outcome),
				baseline: seconds(ideal / 1000),
				value: outcome.ms / ideal,
				target: '≤ 1.10×, 0 failed, ≤ 3 % 429',
				met:
					outcome.items === memories &&
					outcome.ms / ideal <= 1.1 &&
					outcome.failed === 0 &&
					percent(outcome.refused, total) <= 3,
			});
		}

		if (want('execute')) {
			const rtt = await roundTripMs(emu);
			const items = 20;
			const parameters: INodeParameters = {
				resource: 'agent',
				operation: 'execute',
				agentId: byId('3'),
				responseMode: 'start',
				answers: { mappingMode: 'defineBelow', value: { topic: 'rate limits', tone: 'casual' } },
				batching: { batchSize: 5 },
			};
			const outcome = await underLimit(emu, { rateLimitPerSecond: 2, rateLimitBurst: 2 }, [
				{ parameters, items, requestsPerSecond: 2 },
			]);
			// the agent's form once, then one start per item: the first two at once, then one every 0.5 s
			const requests = items + 1;
			const ideal = ((requests - 2) / 2) * 1000 + rtt;
			progress(`rates, Execute ×20 at R=2: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `${items} items of Agent → Execute (Start Only), Batch Size 5, R = 2 ÷ ideal`,
				measured: describe(outcome),
				baseline: seconds(ideal / 1000),
				value: outcome.ms / ideal,
				target: '≤ 1.15×, 0 failed',
				met: outcome.ms / ideal <= 1.15 && outcome.failed === 0 && outcome.items === items,
			});
		}

		if (want('two')) {
			const pages = 10;
			const parameters = {
				resource: 'memory',
				operation: 'getAll',
				returnAll: false,
				limit: pages * PER_PAGE,
			};
			const outcome = await underLimit(emu, { rateLimitPerSecond: 1, rateLimitBurst: 1 }, [
				{ parameters, requestsPerSecond: 1 },
				{ parameters: { ...parameters, limit: pages * PER_PAGE - 1 }, requestsPerSecond: 1 },
			]);
			const throughput = outcome.answered / (outcome.ms / 1000);
			progress(`rates, two executions at R=1: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `two executions at once (${pages} pages each), one credential, R = 1: answers per second ÷ R`,
				measured: `${throughput.toFixed(2)}/s; ${describe(outcome)}`,
				baseline: 'R = 1/s',
				value: throughput,
				target: '≥ 0.9 R, 0 failed',
				met: throughput >= 0.9 && outcome.failed === 0,
			});
		}

		if (want('bucket20')) {
			const pages = 100;
			const parameters = {
				resource: 'memory',
				operation: 'getAll',
				returnAll: false,
				limit: pages * PER_PAGE,
			};
			const outcome = await underLimit(emu, { rateLimitPerSecond: 20, rateLimitBurst: 20 }, [
				{ parameters, requestsPerSecond: 20 },
			]);
			// over n8n's execution time of the node, as the other throughput figures (the set-up of a run is not the pace's)
			const throughput = outcome.answered / (outcome.nodeMs / 1000);
			const total = outcome.answered + outcome.refused;
			progress(`rates, bucket R=20 burst 20: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `Get Many over ${pages} pages (Limit ${pages * PER_PAGE}), R = 20, burst 20: pages per second ÷ R`,
				measured: `${throughput.toFixed(2)}/s; ${describe(outcome)}`,
				baseline: 'R = 20/s',
				value: throughput / 20,
				target: '≥ 0.95 R, ≤ 5 % 429',
				met:
					throughput / 20 >= 0.95 && outcome.failed === 0 && percent(outcome.refused, total) <= 5,
			});
		}
		rows.push(...(await learnedPaceRows(emu, want)));
		// a cluster of processes on one key: asked for by name only (about ten minutes)
		if (only.includes('cluster')) rows.push(...(await clusterRows(emu)));
		rows.push(...(await interactiveRows(want)));
	} finally {
		await emu.stop();
	}
	void options;
	return rows;
}
