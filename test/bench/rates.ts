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
 * BENCH_RATES=bucket1,window,execute,two,bucket20,retry60,nexttoken,sharedwindow,sharedbucket
 * picks rows (all by default).
 */
import type { INodeParameters } from 'n8n-workflow';

import { PACING, resetPaces } from '../../nodes/AgentPlatform/transport/pace';
import { byId, credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow, EmulatorProcess } from './common';
import { median, progress, seconds, startEmulatorProcess } from './common';

const PER_PAGE = 50;
const LATENCY_MS = 20;

interface Limit {
	rateLimitPerSecond?: number;
	rateLimitBurst?: number;
	rateLimitWindow?: { limit: number; seconds: number };
	retryAfterSeconds?: number;
}

interface Outcome {
	ms: number;
	/** n8n's execution time of the node (the longest, for runs at once): without n8n's set-up of a run. */
	nodeMs: number;
	items: number;
	failed: number;
	answered: number;
	refused: number;
	error?: string;
}

const returnAll: INodeParameters = { resource: 'memory', operation: 'getAll', returnAll: true };

/** One round trip to the emulator, no limit set: the median of a few. */
async function roundTripMs(emu: EmulatorProcess): Promise<number> {
	await emu.control('PUT', '/faults', {
		latencyMs: LATENCY_MS,
		rateLimitPerSecond: 0,
		rateLimitWindow: null,
	});
	const times: number[] = [];
	for (let i = 0; i < 5; i++) {
		const started = performance.now();
		await fetch(`${emu.url}/memories?page=1&per_page=${PER_PAGE}`, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': emu.workspaceId },
		}).then(async (res) => await res.arrayBuffer());
		times.push(performance.now() - started);
	}
	return median(times);
}

async function underLimit(
	emu: EmulatorProcess,
	limit: Limit,
	runs: Array<{
		parameters: INodeParameters;
		items?: number;
		requestsPerSecond: number;
		/** Another Base URL naming the same emulator: a pace of its own, as another n8n process has. */
		baseUrl?: string;
	}>,
): Promise<Outcome> {
	await emu.control('DELETE', '/faults');
	await emu.control('PUT', '/faults', { latencyMs: LATENCY_MS, ...limit });
	await emu.control('DELETE', '/requests');
	// each row starts from the credential's rate, not from what the row before taught the pace
	resetPaces();
	const started = performance.now();
	const results = await Promise.all(
		runs.map(
			async (run) =>
				await runNode({
					parameters: run.parameters,
					items:
						run.items === undefined
							? undefined
							: Array.from({ length: run.items }, () => ({ json: {} })),
					credentials: {
						...credentialsFor(emu, run.requestsPerSecond),
						baseUrl: run.baseUrl ?? emu.url,
					},
					continueOnFail: true,
				}),
		),
	);
	const ms = performance.now() - started;
	const { requests } = await emu.control<{ requests: Array<{ status: number; path: string }> }>(
		'GET',
		'/requests',
	);
	if (process.env.BENCH_RATES_TIMELINE)
		progress(
			requests
				.map(
					// the second pacer of a shared row reaches the emulator as localhost
					(r) =>
						`${(r as { at?: number }).at! - (requests[0] as { at?: number }).at!} ${r.status}${String((r as { headers?: { host?: string } }).headers?.host).startsWith('localhost') ? 'b' : ''}`,
				)
				.join(', '),
		);
	const outputs = results.flatMap((r) => r.outputs[0] ?? []);
	const nodeMs = Math.max(
		...results.map(
			(r) =>
				(
					r.run.data.resultData.runData['Agent Platform']?.[0] as
						{ executionTime?: number } | undefined
				)?.executionTime ?? ms,
		),
	);
	return {
		ms,
		nodeMs,
		items: outputs.length,
		// a run's own `error` is null when it went well; Continue On Fail's is the message
		failed:
			outputs.filter((item) => item.json.error !== undefined && item.json.error !== null).length +
			results.filter((r) => r.error).length,
		answered: requests.filter((r) => r.status >= 200 && r.status < 300).length,
		refused: requests.filter((r) => r.status === 429).length,
		error:
			results.find((r) => r.error)?.error?.message ??
			(outputs.find((item) => item.json.error != null)?.json.error as string | undefined),
	};
}

const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0);

function describe(outcome: Outcome): string {
	const total = outcome.answered + outcome.refused;
	return `${seconds(outcome.ms / 1000)}, ${outcome.items} items, ${outcome.failed} failed, ${outcome.refused}/${total} × 429 (${percent(outcome.refused, total).toFixed(1)} %)${outcome.error ? `, error: ${outcome.error}` : ''}`;
}

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
	} finally {
		await emu.stop();
	}
	void options;
	return rows;
}

/**
 * The time scale of the learned-pace rows: production's 1 a second and 60 s waits, four times
 * faster (at ten, the emulator's own timer jitter on a loaded machine is a tenth of an interval).
 */
const SCALE = 4;

async function learnedPaceRows(
	emu: EmulatorProcess,
	want: (name: string) => boolean,
): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	const saved = { ...PACING };
	Object.assign(PACING, {
		documentedRate: saved.documentedRate * SCALE,
		learnMinMs: saved.learnMinMs / SCALE,
		documentedWindowMs: saved.documentedWindowMs / SCALE,
		exactProbeMs: saved.exactProbeMs / SCALE,
	});
	const rate = SCALE;
	const pagesOf = (pages: number) => ({
		resource: 'memory',
		operation: 'getAll',
		returnAll: false,
		limit: pages * PER_PAGE,
	});
	try {
		for (const credential of want('retry60') ? [2, 10, 1000] : []) {
			const rtt = await roundTripMs(emu);
			const pages = 12;
			const retryAfter = 60 / SCALE;
			const outcome = await underLimit(
				emu,
				{ rateLimitPerSecond: rate, rateLimitBurst: 1, retryAfterSeconds: retryAfter },
				[{ parameters: pagesOf(pages), requestsPerSecond: credential * SCALE }],
			);
			const ideal = retryAfter * 1000 + (pages * 1000) / rate + rtt;
			progress(`rates, 429 asks 60 s, credential ${credential}: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `Return All ${pages} pages, platform 1/s, 429 asks 60 s, credential at ${credential}/s (scaled ×${SCALE}) ÷ (60 s + 12 s)`,
				measured: `${outcome.answered + outcome.refused} requests, ${outcome.refused} refused; ${describe(outcome)}`,
				baseline: seconds(ideal / 1000),
				value: outcome.ms / ideal,
				target: '≤ 1.10×, ≤ 2 refused, 0 failed',
				met: outcome.ms / ideal <= 1.1 && outcome.refused <= 2 && outcome.failed === 0,
			});
		}
		for (const credential of want('nexttoken') ? [2, 10, 1000] : []) {
			const rtt = await roundTripMs(emu);
			const pages = 60;
			const outcome = await underLimit(emu, { rateLimitPerSecond: rate, rateLimitBurst: 1 }, [
				{ parameters: pagesOf(pages), requestsPerSecond: credential * SCALE },
			]);
			const ideal = ((pages - 1) * 1000) / rate + rtt;
			const total = outcome.answered + outcome.refused;
			progress(`rates, 429 asks the next token, credential ${credential}: ${describe(outcome)}`);
			rows.push({
				case: '6 Rate limits',
				figure: `Return All ${pages} pages, platform 1/s, 429 asks the time to the next token, credential at ${credential}/s (scaled ×${SCALE}) ÷ ideal`,
				measured: describe(outcome),
				baseline: seconds(ideal / 1000),
				value: outcome.ms / ideal,
				target: '≤ 1.10×, ≤ 3 % 429, 0 failed',
				met:
					outcome.ms / ideal <= 1.1 && percent(outcome.refused, total) <= 3 && outcome.failed === 0,
			});
		}
		const other = emu.url.replace('127.0.0.1', 'localhost');
		const shared: Array<[string, string, Limit, string, number]> = [
			[
				'sharedwindow',
				'fixed window 60 per 60 s with Laravel headers',
				{ rateLimitWindow: { limit: 60, seconds: 60 / SCALE } },
				'≥ 0.9 of the rate, ≤ 3 % 429, 0 failed',
				0.9,
			],
			[
				'sharedbucket',
				'token bucket 1/s, burst 1, 429 asks 60 s',
				{ rateLimitPerSecond: rate, rateLimitBurst: 1, retryAfterSeconds: 60 / SCALE },
				'≥ 0.5 of the rate, 0 failed',
				0.5,
			],
		];
		for (const [name, model, limit, target, share] of shared) {
			if (!want(name)) continue;
			const pages = 100;
			const outcome = await underLimit(emu, limit, [
				{ parameters: pagesOf(pages), requestsPerSecond: 1 * SCALE },
				{ parameters: pagesOf(pages), requestsPerSecond: 1 * SCALE, baseUrl: other },
			]);
			const together = outcome.answered / (outcome.ms / 1000) / rate;
			const total = outcome.answered + outcome.refused;
			progress(
				`rates, two pacers, ${model}: ${together.toFixed(2)} of the rate; ${describe(outcome)}`,
			);
			rows.push({
				case: '6 Rate limits',
				figure: `two pacers on one key (in one process, two paces), ${pages} pages each, credential at the default, ${model} (scaled ×${SCALE}): answers per second together ÷ the rate`,
				measured: `${together.toFixed(2)}; ${describe(outcome)}`,
				baseline: `${rate}/s (scaled)`,
				value: together,
				target,
				met:
					together >= share &&
					outcome.failed === 0 &&
					(name !== 'sharedwindow' || percent(outcome.refused, total) <= 3),
			});
		}
	} finally {
		Object.assign(PACING, saved);
	}
	return rows;
}
