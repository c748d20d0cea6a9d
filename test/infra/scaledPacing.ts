import type { PACING } from '../../nodes/AgentPlatform/transport/pace';

/**
 * The pace's numbers that stand for the platform's documented rate and times, time-scaled: the
 * platform `scale` times faster than production (its rate times `scale`, its waits and windows
 * divided), so that a test or a bench row of a minute's behaviour takes a fraction of it. From
 * `saved`, PACING as it was; `Object.assign(PACING, scaledPacing(saved, scale))`.
 */
export function scaledPacing(saved: typeof PACING, scale: number): Partial<typeof PACING> {
	return {
		documentedRate: saved.documentedRate * scale,
		learnMinMs: saved.learnMinMs / scale,
		documentedWindowMs: saved.documentedWindowMs / scale,
		exactProbeMs: saved.exactProbeMs / scale,
		crowdedBackoffMs: saved.crowdedBackoffMs / scale,
		crowdedBackoffMaxMs: saved.crowdedBackoffMaxMs / scale,
	};
}
