/** What the rate rows of case 6 share (rates.ts, rates-learned.ts): the limits, one Return All under a limit, its outcome in words. */
import type { INodeParameters } from 'n8n-workflow';
import { resetPaces } from '../../nodes/AgentPlatform/transport/pace';
import { credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { EmulatorProcess } from './common';
import { median, progress, seconds } from './common';

export const PER_PAGE = 50;
export const LATENCY_MS = 20;

export interface Limit {
	rateLimitPerSecond?: number;
	rateLimitBurst?: number;
	rateLimitWindow?: { limit: number; seconds: number };
	retryAfterSeconds?: number;
}

export interface Outcome {
	ms: number;
	/** n8n's execution time of the node (the longest, for runs at once): without n8n's set-up of a run. */
	nodeMs: number;
	items: number;
	failed: number;
	answered: number;
	refused: number;
	error?: string;
}

export const returnAll: INodeParameters = {
	resource: 'memory',
	operation: 'getAll',
	returnAll: true,
};

/** One round trip to the emulator, no limit set: the median of a few. */
export async function roundTripMs(emu: EmulatorProcess): Promise<number> {
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

export async function underLimit(
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

export const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0);

export function describe(outcome: Outcome): string {
	const total = outcome.answered + outcome.refused;
	return `${seconds(outcome.ms / 1000)}, ${outcome.items} items, ${outcome.failed} failed, ${outcome.refused}/${total} × 429 (${percent(outcome.refused, total).toFixed(1)} %)${outcome.error ? `, error: ${outcome.error}` : ''}`;
}
