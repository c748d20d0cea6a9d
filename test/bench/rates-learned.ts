/** Case 6's learned-pace rows (retry60, nexttoken, sharedwindow, sharedbucket; see rates.ts), time-scaled. */
import { PACING } from '../../nodes/AgentPlatform/transport/pace';
import { scaledPacing } from '../infra/scaledPacing';
import type { BenchRow, EmulatorProcess } from './common';
import { progress, seconds } from './common';
import { PER_PAGE, Limit, roundTripMs, underLimit, percent, describe } from './rates-measure';
/**
 * The time scale of the learned-pace rows: production's 1 a second and 60 s waits, four times
 * faster (at ten, the emulator's own timer jitter on a loaded machine is a tenth of an interval).
 */
const SCALE = 4;

export async function learnedPaceRows(
	emu: EmulatorProcess,
	want: (name: string) => boolean,
): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	const saved = { ...PACING };
	Object.assign(PACING, scaledPacing(saved, SCALE));
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
