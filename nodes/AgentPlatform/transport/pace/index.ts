/**
 * One pace per credential in the n8n process: every request sent with one API key to one Base URL
 * (items, pages, polls, uploads, every node run and execution at once) waits here to be sent.
 *
 * How the parts fit (docs/rate-limits.md tells the whole story):
 * - workClass.ts   whom a request is for: a person waiting (interactive) or nobody now (bulk).
 * - paceQueue.ts   who sends next: a queue per class, its executions in rotation, one request each
 *                  (classQueue.ts), one execution's requests in order; interactive first, bulk
 *                  keeping one send in three; a retry and an editor lookup go to the front of
 *                  their class's queue. Only the request at the front waits for the gate below.
 * - pace.ts        one credential's pace, what the request function talks to: a request waits in
 *                  its class's queue, then, at the front, for the gate.
 * - gate.ts        the gate: when the front request may go: after a 429's hold (`retry_after`,
 *                  `Retry-After`, read once by the request function), then as the window allows,
 *                  else spaced by the interval (at first a slow start). Sends are spaced from the
 *                  actual send, also after a hold: a request released by a wait is never followed
 *                  at once by the next. It numbers the slots and learns from every answer. After
 *                  a long hold the first send waits a random part of it more (wider when other
 *                  processes crowded this one off the key), so a crowd does not resume at one instant.
 *                  A short hold that crowded it is followed by a back-off that doubles each time.
 * - acceptedRate.ts the rate: the credential's ceiling, what the platform's refusals teach, probes;
 *                  whether a 429 came while this process sent within its share (a crowd: another
 *                  process on the key), which teaches nothing of the rate and widens the budget.
 * - rateWindow.ts  the X-RateLimit-* headers, where the platform tells its window: they govern.
 * - roundTrips.ts  how much the round trips vary: added to the spacing where a 429 costs long
 *                  (spacing.ts: the interval kept between sends).
 * - waitLimit.ts   how long a request may wait: an editor lookup a few seconds, a run no longer
 *                  for a held key than what is left of its rate-limit budget (longer while other
 *                  processes crowd this one: transport/retryPolicy.ts); past that it fails
 *                  at once, nothing sent (a run with the words of the 429 that held the key).
 * - heldError.ts   what an editor lookup is told when the key is held longer than it may wait.
 * - longWaits.ts   a long wait in the queue, written to n8n's log with its reason.
 * - pollers.ts     the polls of waiting runs and files: a share of the rate between them.
 * - settings.ts    the numbers (PACING).
 *
 * Waiting: the front request sleeps with n8n-workflow's sleep in slices that stop when its
 * execution is cancelled (transport/cancellation.ts). Editor lookups wait at most `maxWaitMs` and
 * are told why (PaceHeldError); no request waits for a hold past its `maxHeldMs` (waitLimit.ts).
 */
import { Pace } from './pace';
import { PACING } from './settings';

export { PaceHeldError } from './heldError';
export { Pace } from './pace';
export { PACING } from './settings';
export { workClassOf, type WorkClass } from './workClass';
export type { PaceSlot } from './slot';
export type { KeyHold, WaitLimit } from './waitLimit';

// Module-level on purpose: every node run and execution in this n8n process shares the pace of
// its credential. Keyed by a digest of the API key and Base URL (transport/credentials.ts).
const paces = new Map<string, Pace>();
let sweptAt = 0;

export function paceFor(key: string, requestsPerSecond: number): Pace {
	forgetIdlePaces(Date.now());
	let pace = paces.get(key);
	if (!pace) paces.set(key, (pace = new Pace(requestsPerSecond)));
	else pace.configure(requestsPerSecond);
	return pace;
}

/**
 * Forgets the paces unused for PACING.forgetIdleMs (an hour: far longer than a 429's wait or a
 * node run's pause between polls), so that credentials no longer used leave nothing behind.
 */
function forgetIdlePaces(now: number): void {
	if (now - sweptAt < PACING.sweepEveryMs) return;
	sweptAt = now;
	for (const [key, pace] of paces) {
		const idleSince = pace.idleSince(now);
		if (idleSince !== undefined && now - idleSince >= PACING.forgetIdleMs) paces.delete(key);
	}
}

/** How many paces this process keeps (for tests). */
export function pacesKept(): number {
	return paces.size;
}

/** Forgets every pace (tests start each case from the credential's rate). */
export function resetPaces(): void {
	paces.clear();
}
