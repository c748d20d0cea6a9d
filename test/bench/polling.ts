/**
 * Case 4, Long runs: Agent → Execute (Wait for Completion) of runs lasting 2 and 10 minutes. The
 * platform holds the call for its first 100 s, then the node polls GET /agent-responses/{id}
 * (helpers/agentResponses.ts: every 5 % of the time elapsed, within 1 s to 30 s).
 *
 * Time-scaled, honestly: the emulator's clock runs S times faster (S = --time-scale, default 20),
 * so a 10-minute run takes 30 real seconds. The node's clock is real time, so its polling bounds
 * are scaled by the same factor (POLLING.minIntervalMs = 1000/S, maxIntervalMs = 30000/S) and its
 * Timeout too: the schedule in virtual time is then the one a real run gets, since the 5 % rule
 * does not depend on the scale. What does not scale is the real time a poll takes (a few ms on
 * loopback) and timer lateness: they are multiplied by S in the figures below, which makes them
 * pessimistic. `--time-scale 1` runs the real 12 minutes.
 *
 * The end of a run is taken from the emulator's own record (its created_at/updated_at, virtual
 * time) placed on the real clock at the arrival of the execute request; the node sees the end
 * when the poll that returns it arrives. Baseline: the bound max(1 s, 5 % of the run's duration).
 */
import { POLLING } from '../../nodes/AgentPlatform/helpers/agentResponses';
import { startEmulator } from '../../dev/emulator';
import { byId, credentialsFor, runNode } from '../infra/n8n';
import type { BenchOptions, BenchRow } from './common';
import { progress, seconds } from './common';

const TEXT_AGENT = 3;
const MAX_POLLS = 40;

const micros = (iso: string) => Date.parse(iso);

export async function benchPolling(options: BenchOptions): Promise<BenchRow[]> {
	const scale = options.timeScale;
	const saved = { ...POLLING };
	const emu = await startEmulator({ port: 0, timeScale: scale, quiet: true });
	const rows: BenchRow[] = [];
	try {
		Object.assign(POLLING, {
			minIntervalMs: saved.minIntervalMs / scale,
			maxIntervalMs: saved.maxIntervalMs / scale,
		});
		for (const duration of [120, 600]) {
			emu.configureAgent(TEXT_AGENT, { executionSeconds: duration });
			let worstDelay = 0;
			let worstPolls = 0;
			const runs = Math.min(options.runs, 2);
			for (let i = 0; i < runs; i++) {
				emu.clearRequests();
				const { outputs, error } = await runNode({
					parameters: {
						resource: 'agent',
						operation: 'execute',
						agentId: byId(TEXT_AGENT),
						responseMode: 'wait',
						options: {
							answersJson: JSON.stringify({ topic: 'long runs', tone: 'formal' }),
							timeout: Math.max(0.1, (2 * duration) / 60 / scale),
						},
					},
					credentials: credentialsFor(emu),
				});
				const result = outputs[0]?.[0]?.json;
				if (error || result?.status !== 'succeeded')
					throw new Error(`the ${duration} s run did not succeed: ${error?.message}`);
				const record = emu.state.responses.get(Number(result.id))!;
				const post = emu.requests.find(
					(r) => r.method === 'POST' && r.path === `/agents/${TEXT_AGENT}/execute`,
				)!;
				const polls = emu.requests.filter((r) => r.path === `/agent-responses/${record.id}`);
				const lasted = micros(record.updated_at) - micros(record.created_at); // virtual ms
				const endedAt = post.at + lasted / scale; // real ms
				const seenAt = polls.length ? polls[polls.length - 1].at : endedAt;
				const delay = (seenAt - endedAt) * scale; // virtual ms
				worstDelay = Math.max(worstDelay, delay);
				worstPolls = Math.max(worstPolls, polls.length);
				progress(
					`polling: ${duration} s run (×${scale}): ${polls.length} polls, end seen ${seconds(delay / 1000)} after it (virtual)`,
				);
			}
			const bound = Math.max(1000, 0.05 * duration * 1000);
			rows.push({
				case: '4 Long runs',
				figure: `${duration / 60}-minute run (time scale ${scale}): delay to see the end ÷ max(1 s, 5 % of ${duration} s)`,
				measured: `${seconds(worstDelay / 1000)}, ${worstPolls} polls`,
				baseline: seconds(bound / 1000),
				value: worstDelay / bound,
				target: `≤ 1, ≤ ${MAX_POLLS} polls`,
				met: worstDelay <= bound && worstPolls <= MAX_POLLS,
				note: runs > 1 ? `worst of ${runs} runs` : undefined,
			});
		}
	} finally {
		Object.assign(POLLING, saved);
		await emu.stop();
	}
	return rows;
}
