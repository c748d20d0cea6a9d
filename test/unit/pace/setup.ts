/** What the pace's unit tests share: a node context, PACING restored after each case, the parts' state. */
import { PACING, type Pace } from '../../../nodes/AgentPlatform/transport/pace';
import type { PlatformContext } from '../../../nodes/AgentPlatform/transport/types';

export function context(signal?: AbortSignal): PlatformContext {
	return {
		getNode: () => ({ name: 'Agent Platform' }),
		getExecutionCancelSignal: () => signal,
	} as unknown as PlatformContext;
}

/**
 * PACING as it was before each case, restored after it; most cases take several turns before
 * answering, so they start without the slow start of an unknown platform. Returns the defaults.
 */
export function usePacingSettings(): typeof PACING {
	const saved = { ...PACING };
	beforeEach(() => (PACING.slowStartAnswers = 0));
	afterEach(() => Object.assign(PACING, saved));
	return saved;
}

/** The accepted-rate part of a pace (acceptedRate.ts): its probe schedule, for the cases that read it. */
export function acceptedRateOf(pace: Pace): { probeAt: number; probeWaitMs(): number } {
	return (pace as unknown as { accepts: { probeAt: number; probeWaitMs(): number } }).accepts;
}
