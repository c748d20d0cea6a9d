/** What the pace's unit tests share: a node context, PACING restored after each case, the parts' state. */
import { PACING, type Pace } from '../../../nodes/AgentPlatform/transport/pace';
import type { PlatformContext } from '../../../nodes/AgentPlatform/transport/types';

/** A node's context: bulk work (no mode) unless `extra` says otherwise (e.g. getMode, logger). */
export function context(signal?: AbortSignal, extra: object = {}): PlatformContext {
	return {
		getNode: () => ({ name: 'Agent Platform' }),
		getExecutionCancelSignal: () => signal,
		...extra,
	} as unknown as PlatformContext;
}

/** The context of an execution in `mode` (manual: the editor's run, a person waiting). */
export const inMode = (mode: string, extra: object = {}) =>
	context(undefined, { getMode: () => mode, ...extra });

/**
 * PACING as it was before each case, restored after it; most cases send several requests before
 * answering, so they start without the slow start of an unknown platform. Returns the defaults.
 */
export function usePacingSettings(): typeof PACING {
	const saved = { ...PACING };
	beforeEach(() => (PACING.slowStartAnswers = 0));
	afterEach(() => Object.assign(PACING, saved));
	return saved;
}

/** The interval the gate keeps between sends now (gate.ts, from spacing.ts). */
export function intervalOf(pace: Pace): number {
	return (pace as unknown as { gate: { intervalMs(): number } }).gate.intervalMs();
}

/** How long the request at the front must still wait, from now (the gate's delay). */
export function delayOf(pace: Pace): number {
	return (pace as unknown as { gate: { delay(now: number): number } }).gate.delay(Date.now());
}

/** The accepted-rate part of a pace (acceptedRate.ts): its probe schedule, for the cases that read it. */
export function acceptedRateOf(pace: Pace): { probeAt: number; probeWaitMs(): number } {
	return (pace as unknown as { accepts: { probeAt: number; probeWaitMs(): number } }).accepts;
}

/**
 * Stops Date.now(), the pace's clock, until the returned function is called: the requests asked
 * meanwhile are asked at one instant, as a node asks for its items' requests. Without it a loaded
 * machine that pauses the test between two asks for longer than the gate's interval lets an
 * earlier request go before a later one has joined, and the order seen is not the case's. `at`:
 * the instant it stops at (e.g. a request's send, for what follows it at once).
 */
export function stopClock(at = Date.now()): () => void {
	const stopped = jest.spyOn(Date, 'now').mockReturnValue(at);
	return () => stopped.mockRestore();
}

type Ctx = ReturnType<typeof context>;

/** Takes a slot for each [label, context] in the order given, noting each label in `sent` as it is sent. */
export async function takeAll(
	pace: Pace,
	queued: Array<[string, Ctx]>,
	sent: string[],
): Promise<void> {
	await Promise.all(
		queued.map(async ([label, ctx]) => {
			const slot = await pace.take(ctx);
			sent.push(label);
			pace.answered(slot, 200);
		}),
	);
}

/** takeAll with every request asked at one instant (stopClock); the labels in the order sent. */
export async function takeAllAtOnce(pace: Pace, queued: Array<[string, Ctx]>): Promise<string[]> {
	const sent: string[] = [];
	const startClock = stopClock();
	const taken = takeAll(pace, queued, sent);
	startClock();
	await taken;
	return sent;
}
