/**
 * One pace per credential in the n8n process: every request sent with one API key to one Base
 * URL (items, pages, polls, uploads, every node run and execution at once) waits its turn here.
 *
 * - First come, first served: one queue, so no request can starve. A request refused with 429
 *   goes back to the front: it came first.
 * - The credential's Requests per Second is a ceiling. Until the platform refuses a request the
 *   pace sends at it; from the first 429 on, never faster than the rate the platform was seen to
 *   accept: what this process got through in the window before the refusal (as long as the wait
 *   asked, at least PACING.learnMinMs), or the platform's documented rate when this process had
 *   not been sending at full pace for that long. Several processes on one key each learn their
 *   share this way, without talking to each other. A 429 holds every request until the wait asked
 *   (`retry_after`, `Retry-After`); a 429 a hair early (a wait well under one interval) is waited
 *   for without learning.
 * - A 429 that asks only the time to the bucket's next token tells the platform's rate exactly
 *   (the time since the last accepted send plus that wait): the pace keeps to it and probes only
 *   rarely (PACING.exactProbeMs).
 * - Otherwise it probes upward slowly: a tenth more after a quiet spell long enough that the
 *   probe's gain pays back a refused probe twice (a refused probe costs the whole wait: 60 s of
 *   requests). A refused probe goes back to the rate before it and doubles the next spell.
 * - Where a refusal costs a long wait, sends are also spaced by how much the round trip varies:
 *   a request arriving a hair early would cost the whole wait.
 * - Sends are spaced from the actual send, also after a hold: a request released by a wait is
 *   never followed at once by the next.
 * - Where the platform tells its window (`X-RateLimit-Limit`, `X-RateLimit-Remaining`, as
 *   Laravel sends on every answer), those counts govern: alone on the key, the window's remaining
 *   requests go without pacing; when the counts show that someone else spends from the same
 *   window (another n8n process), the remaining budget is spread over the time to the window's
 *   end, so two processes reading the same Remaining do not both spend it. Nothing is sent into a
 *   window known to be spent: it waits for the window's end, known from `X-RateLimit-Reset` or a
 *   429's wait, and learned for the windows after.
 *
 * Waiting: only the request at the front sleeps, with n8n-workflow's sleep in slices that stop
 * when its execution is cancelled (transport/cancellation.ts); the others wait for their turn,
 * which the request leaving the front hands on, or for their execution's cancel signal. Editor
 * lookups wait at most `maxWaitMs` and are told why (PaceHeldError).
 */
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignal, throwIfCancelled, waitFor } from './cancellation';
import { retryAfterMs } from './retryAfter';
import type { PlatformContext } from './types';

export const PACING = {
	/** Sends are spaced a little more than 1/rate apart, so that a bucket is never reached early. */
	margin: 0.04,
	/** ...and this much once a 429 asked for more than PACING.longPenaltyIntervals intervals. */
	penaltyMargin: 0.1,
	longPenaltyIntervals: 10,
	/**
	 * A 429 whose wait is below this share of the interval came a hair early (network jitter at a
	 * bucket of one): it is waited for, and the rate stays.
	 */
	jitterShare: 0.25,
	/** The platform's documented rate (requests a second): what a 429 teaches when nothing better is known. */
	documentedRate: 1,
	/** The shortest window over which the rate the platform accepted is measured. */
	learnMinMs: 5_000,
	/** The time sent at full pace must cover this share of that window for its count to be the platform's rate. */
	busyShare: 0.8,
	/** What a 429 teaches is never below this share of the documented rate. */
	learnFloorShare: 0.5,
	/** A probe raises the learned rate by this share... */
	probeShare: 0.1,
	/** ...once its gain would pay back this many refused probes (each costs the 429's wait). */
	probePayback: 2,
	/** A rate learned from the time to a bucket's next token is the platform's: probed this rarely. */
	exactProbeMs: 600_000,
	/** Round trips remembered to measure how much they vary (arrival jitter)... */
	roundTrips: 32,
	/**
	 * ...and that spread, added to the spacing where a 429 costs long, is at most this share of it
	 * (elsewhere, at most PACING.margin more).
	 */
	spreadShareMax: 0.25,
	/** Until this many answers came back with nothing learned, one more request in flight per answer... */
	slowStartAnswers: 64,
	/** ...the front request looking again this often. */
	slowStartCheckMs: 5,
	/** Kept after a window's known end before the first request into the next. */
	windowMarginMs: 250,
	/** A window's length when only its budget is known (the documented 429 asks for 60 s). */
	documentedWindowMs: 60_000,
	/** Another sender on the window is assumed for this many windows after it was last seen. */
	sharedWindows: 3,
	/** Polls of waiting runs and files take at most this share of the rate between them. */
	pollShare: 0.5,
	/** The front request re-checks the gate at least this often (a retry may take its place). */
	sliceMs: 250,
};

/** A request's place in the pace once it may be sent. */
export interface PaceSlot {
	/** Sequence number of the send. */
	readonly seq: number;
	readonly sentAt: number;
}

/** An editor lookup would wait longer than it may: the platform's rate limit holds the key. */
export class PaceHeldError extends NodeOperationError {}

interface Waiter {
	wake?: () => void;
}

/** The HTTP headers the pace reads, as numbers. */
function headerNumber(headers: Record<string, unknown>, name: string): number | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** Sends remembered for learning: about 10 minutes at 10 a second. */
const HISTORY = 6_000;

export class Pace {
	/** The credential's Requests per Second: a ceiling. */
	configured: number;
	/** The rate now: the ceiling, or lower once the platform refused a request. */
	rate: number;
	/** The rate the platform was seen to accept (with probes upward), from the first 429 on. */
	learned?: number;
	/** Date.now() before which nothing is sent (a 429's wait, or an exhausted window's end). */
	holdUntil = 0;
	/** When the last answer other than 429 arrived. */
	lastAnsweredAt = 0;
	/** Polls waiting for runs or files with this credential, right now. */
	pollers = 0;
	/** Counters, for tests and benchmarks. */
	readonly stats = { sent: 0, rateLimited: 0 };

	private nextAt = 0;
	private lastSentAt = 0;
	/** The first send after a pause (a new connection, likely slower to arrive than the next). */
	private coldSeq = 0;
	/** Extra spacing learned from 429s that came a hair early (arrival jitter). */
	private jitterPadMs = 0;
	/** Requests sent and not yet answered. */
	private inFlight = 0;
	private readonly queue: Waiter[] = [];
	private sentSeq = 0;
	/** A 429 to a request sent at or before this one does not teach again. */
	private learnedAtSeq = 0;
	/** Send times of the requests the platform accepted, and of every send (oldest first). */
	private readonly accepted: number[] = [];
	private readonly sends: number[] = [];
	/** When the rate may next be raised by a probe. */
	private probeAt = 0;
	/** The last 429's wait, the price of a refused probe. */
	private penaltyMs = 0;
	/** The rate before the current probe: what a refused probe goes back to. */
	private safeRate?: number;
	/** Refused probes since the last one that held: each doubles the next quiet spell. */
	private probesRefused = 0;
	/** The learned rate came from a bucket's time to its next token. */
	private exact = false;
	/** The send time of the newest request the platform accepted. */
	private lastAcceptedSentAt = 0;
	/** Recent round trips (ms), and how much they vary (ms). */
	private readonly roundTrips: number[] = [];
	private spreadMs = 0;
	// The platform's window, when its headers tell it.
	private limit?: number;
	private remaining = 0;
	/** The last request counted in `remaining`. */
	private remainingSeq = 0;
	private windowEnd?: number;
	private windowMs?: number;
	private windowOpenedAt?: number;
	/** The last request sent before the current window began. */
	private windowStartSeq = 0;
	/** Until then another sender is assumed to spend from the same window. */
	private sharedUntil = 0;

	constructor(configured: number) {
		this.configured = configured;
		this.rate = configured;
	}

	/** The credential's rate changed (it was edited): the new ceiling, and what was learned stays. */
	configure(configured: number): void {
		if (configured === this.configured) return;
		this.configured = configured;
		this.rate = Math.min(configured, this.learned ?? configured);
	}

	/** Requests waiting for their turn. */
	get waiting(): number {
		return this.queue.length;
	}

	/** How long, from now, the platform holds this key (0 when it does not). */
	heldForMs(now = Date.now()): number {
		return Math.max(0, this.holdUntil - now);
	}

	/**
	 * Resolves when the request may be sent. `retry`: it was refused before, so it goes first.
	 * `maxWaitMs`: an editor lookup, which fails with PaceHeldError rather than wait longer.
	 */
	async take(ctx: PlatformContext, retry = false, maxWaitMs = Infinity): Promise<PaceSlot> {
		throwIfCancelled(ctx);
		const until = Date.now() + maxWaitMs;
		const me: Waiter = {};
		// a lookup for someone waiting in the editor goes first, as a retry does: it is one request
		if (retry || Number.isFinite(maxWaitMs)) this.queue.unshift(me);
		else this.queue.push(me);
		try {
			for (;;) {
				const now = Date.now();
				if (Number.isFinite(maxWaitMs) && now + this.heldForMs(now) > until)
					throw this.heldError(ctx);
				if (this.queue[0] !== me) {
					// a lookup that may wait only so long looks again in slices rather than wait for its turn
					if (Number.isFinite(maxWaitMs)) await waitFor(ctx, Math.min(PACING.sliceMs, until - now));
					else await this.turn(ctx, me);
					continue;
				}
				const delay = this.delay(now);
				if (delay <= 0) break;
				if (now + delay > until) throw this.heldError(ctx);
				await waitFor(ctx, Math.min(delay, PACING.sliceMs));
			}
		} finally {
			const index = this.queue.indexOf(me);
			if (index >= 0) this.queue.splice(index, 1);
			if (index === 0) this.queue[0]?.wake?.();
		}
		return this.send();
	}

	/** Learns from an answer (any status; not for a request that got no answer). */
	answered(
		slot: PaceSlot,
		status: number,
		headers: Record<string, unknown> = {},
		body?: unknown,
	): void {
		const now = Date.now();
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.readWindow(slot, now, headers);
		if (status !== 429) {
			// The first request of a process takes longest to arrive (connections, lazy loading), so
			// the second, spaced from its send, could reach a bucket of one early: space it from here.
			// The same after any pause (the wait of a 429 included): the connection is new again.
			if (slot.seq === 1 || slot.seq === this.coldSeq)
				this.nextAt = Math.max(this.nextAt, now + this.intervalMs());
			this.lastAnsweredAt = now;
			this.lastAcceptedSentAt = Math.max(this.lastAcceptedSentAt, slot.sentAt);
			this.remember(this.accepted, slot.sentAt);
			this.measureRoundTrip(now - slot.sentAt);
			this.probe(now);
			return;
		}
		this.stats.rateLimited++;
		const asked = retryAfterMs(body, headers);
		if (this.limit !== undefined) {
			// the window is spent: nothing goes before its end
			this.remaining = 0;
			this.remainingSeq = this.sentSeq;
			if (asked !== undefined) {
				const end = now + asked + PACING.windowMarginMs;
				this.windowEnd = Math.max(this.windowEnd ?? 0, end);
				if (this.windowMs === undefined && this.windowOpenedAt !== undefined) {
					this.windowMs = end - this.windowOpenedAt;
				}
			}
		} else if (slot.seq > this.learnedAtSeq && this.probing()) {
			this.probeRefused(asked ?? 0, now);
		} else if (asked !== undefined && asked < this.intervalMs() * PACING.jitterShare) {
			// a hair early: requests arrive bunched by that much, so keep that much more between them
			this.jitterPadMs = Math.min(
				(1000 / this.rate) * PACING.jitterShare,
				Math.max(this.jitterPadMs * 1.5, asked),
			);
		} else if (slot.seq > this.learnedAtSeq) {
			this.learn(slot, asked ?? 0, now);
		}
		this.holdUntil = Math.max(this.holdUntil, now + (asked ?? this.intervalMs() * 2));
		// the refused request used nothing up: the platform takes the next one when its wait is over
		// (never earlier than a send already spaced: a late 429 must not bring the next one forward)
		this.nextAt = Math.max(this.nextAt, this.holdUntil);
	}

	/** A request got no answer (a network error): it is no longer in flight. */
	lost(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
	}

	/**
	 * The shortest time between two polls of one waiting run or file: the pollers with this
	 * credential take at most PACING.pollShare of its rate together.
	 */
	pollSpacingMs(): number {
		return (Math.max(1, this.pollers) * 1000) / (this.rate * PACING.pollShare);
	}

	private intervalMs(): number {
		// once a 429 has cost many intervals, a send arriving a little early costs that much again:
		// keep a wider margin, and the round trip's spread, between sends
		const nominal = 1000 / this.rate;
		if (this.penaltyMs * this.rate > 1000 * PACING.longPenaltyIntervals)
			return (
				nominal * (1 + PACING.penaltyMargin) +
				Math.max(this.jitterPadMs, Math.min(this.spreadMs, nominal * PACING.spreadShareMax))
			);
		// once learned, a refusal costs a request: some of the spread, as much as the margin again
		const spread =
			this.learned === undefined ? 0 : Math.min(this.spreadMs, nominal * PACING.margin);
		return nominal * (1 + PACING.margin) + Math.max(this.jitterPadMs, spread);
	}

	private measureRoundTrip(ms: number): void {
		this.remember(this.roundTrips, ms, PACING.roundTrips);
		const sorted = [...this.roundTrips].sort((a, b) => a - b);
		// the slowest tenth aside: one stalled answer is not the arrival jitter
		this.spreadMs = sorted[Math.floor((sorted.length - 1) * 0.9)] - sorted[0];
	}

	/** A probe is in effect: the rate is above the last one the platform was seen to accept. */
	private probing(): boolean {
		return (
			this.safeRate !== undefined && this.learned !== undefined && this.learned > this.safeRate
		);
	}

	/** A refused probe: back to the rate before it, and twice as long before the next. */
	private probeRefused(askedMs: number, now: number): void {
		this.probesRefused++;
		this.learned = this.safeRate;
		this.rate = this.learned!;
		this.learnedAtSeq = this.sentSeq;
		this.probeAt = now + askedMs + this.probeWaitMs() * 2 ** this.probesRefused;
	}

	/** A refusal: from now on, never faster than what the platform was seen to accept. */
	private learn(slot: PaceSlot, askedMs: number, now: number): void {
		if (askedMs < Math.max(this.intervalMs(), 1000 / PACING.documentedRate)) {
			// less than one interval (ours, or the documented one): a bucket's time to its next token,
			// counted from the last send it accepted, is the platform's interval itself
			const since =
				this.lastAcceptedSentAt > 0 && this.lastAcceptedSentAt < slot.sentAt
					? slot.sentAt - this.lastAcceptedSentAt
					: 1000 / this.rate;
			this.settle(Math.min(this.rate, 1000 / (since + askedMs)), askedMs, now, true);
			return;
		}
		const windowMs = Math.max(askedMs, PACING.learnMinMs);
		const from = slot.sentAt - windowMs;
		const count = (times: number[]) => times.filter((t) => t >= from && t < slot.sentAt).length;
		// sending at full pace for most of the window: what got through is what the platform allows
		const busy =
			this.sends[0] !== undefined &&
			this.sends[0] <= from &&
			count(this.sends) >= (PACING.busyShare * this.rate * windowMs) / 1000;
		const seen = (count(this.accepted) * 1000) / windowMs;
		const accepts = busy ? seen : Math.max(seen, PACING.documentedRate);
		// what went through may be this process's share only (another sender on the key, which a
		// 429 holds for as long next time): never below half the documented rate, so that while
		// one of two processes waits, the other keeps the key busy
		const floor = Math.max(1000 / windowMs, PACING.documentedRate * PACING.learnFloorShare);
		this.settle(Math.min(this.rate, Math.max(accepts, floor)), askedMs, now, false);
	}

	private settle(rate: number, askedMs: number, now: number, exact: boolean): void {
		this.learned = Math.min(this.configured, rate);
		this.rate = this.learned;
		this.safeRate = this.learned;
		this.probesRefused = 0;
		this.exact = exact;
		this.learnedAtSeq = this.sentSeq;
		this.penaltyMs = askedMs;
		this.probeAt = now + askedMs + this.probeWaitMs();
	}

	/** A probe's quiet spell: its gain (a tenth more for that long) pays back refused probes. */
	private probeWaitMs(): number {
		const payback =
			(PACING.probePayback * Math.max(this.penaltyMs, this.intervalMs())) / PACING.probeShare;
		return this.exact ? Math.max(payback, PACING.exactProbeMs) : payback;
	}

	private probe(now: number): void {
		if (this.learned === undefined || now < this.probeAt || this.learned >= this.configured) return;
		// the rate before held through its quiet spell: it is what a refused probe goes back to
		if (this.probing()) this.probesRefused = 0;
		this.safeRate = this.learned;
		this.learned = Math.min(this.configured, this.learned * (1 + PACING.probeShare));
		this.rate = this.learned;
		this.probeAt = now + this.probeWaitMs() * 2 ** this.probesRefused;
	}

	private remember(times: number[], at: number, keep = HISTORY): void {
		times.push(at);
		if (times.length > keep) times.splice(0, times.length - keep);
	}

	/** How long the front request must still wait, from `now`. */
	private delay(now: number): number {
		if (now < this.holdUntil) return this.holdUntil - now;
		if (
			this.learned === undefined &&
			this.limit === undefined &&
			this.accepted.length < PACING.slowStartAnswers &&
			this.inFlight >= Math.max(1, this.accepted.length)
		) {
			// nothing known of the platform yet: one more in flight per answer, so that a credential
			// far above the platform's rate costs one or two refusals, not a refusal per request sent
			return PACING.slowStartCheckMs;
		}
		if (this.limit !== undefined) {
			if (this.windowEnd !== undefined && now >= this.windowEnd) {
				// a new window: its whole limit is free; it opens with the next request
				this.remaining = this.limit;
				this.remainingSeq = this.sentSeq;
				this.windowEnd = undefined;
				this.windowOpenedAt = undefined;
				this.windowStartSeq = this.sentSeq;
			}
			const left = this.remaining - (this.sentSeq - this.remainingSeq);
			if (left > 0) {
				if (now >= this.sharedUntil) return 0;
				// shared: this process's part of what is left, spread over the time to the window's end
				const end =
					this.windowEnd ??
					(this.windowOpenedAt ?? now) + (this.windowMs ?? PACING.documentedWindowMs);
				return this.lastSentAt + Math.max(0, end - now) / left - now;
			}
			if (this.windowEnd !== undefined) return this.windowEnd - now;
			// spent, and its end unknown: ask at the pace, and learn the end from the 429
		}
		return this.nextAt - now;
	}

	private send(): PaceSlot {
		const now = Date.now();
		if (now - this.lastSentAt > 2 * this.intervalMs()) this.coldSeq = this.sentSeq + 1;
		// spaced from the actual send: a bucket holding one token gives nothing back for lateness
		this.nextAt = now + this.intervalMs();
		this.lastSentAt = now;
		this.inFlight++;
		this.remember(this.sends, now);
		this.stats.sent++;
		return { seq: ++this.sentSeq, sentAt: now };
	}

	private readWindow(slot: PaceSlot, now: number, headers: Record<string, unknown>): void {
		const limit = headerNumber(headers, 'X-RateLimit-Limit');
		const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
		if (limit === undefined || remaining === undefined || limit < 1) {
			// a newer answer without the headers: the platform no longer tells its window, so pace
			if (this.limit !== undefined && slot.seq > this.remainingSeq) this.forgetWindow();
			return;
		}
		this.limit = limit;
		// only the newest news counts: answers may arrive out of order
		if (slot.seq > this.remainingSeq) {
			// fewer left than this process's own sends explain (beyond those still in flight): another
			// sender spends from the same window
			// (the first reading of a window: its whole limit less this process's sends into it)
			const fresh = this.remainingSeq <= this.windowStartSeq;
			const expected = fresh
				? limit - (slot.seq - this.windowStartSeq)
				: this.remaining - (slot.seq - this.remainingSeq);
			const inFlight = this.sentSeq - slot.seq;
			if (remaining < expected - inFlight) {
				this.sharedUntil =
					now + PACING.sharedWindows * (this.windowMs ?? PACING.documentedWindowMs);
			}
			this.remaining = remaining;
			this.remainingSeq = slot.seq;
		}
		if (
			this.windowOpenedAt === undefined &&
			slot.seq > this.windowStartSeq &&
			(remaining === limit - 1 || now < this.sharedUntil)
		) {
			// the window opened at about this request (another sender may have opened it just before)
			this.windowOpenedAt = slot.sentAt;
			if (this.windowMs !== undefined) this.windowEnd = slot.sentAt + this.windowMs;
		}
		const reset = headerNumber(headers, 'X-RateLimit-Reset');
		if (reset !== undefined && reset > 0) {
			// an epoch in seconds, or (some APIs) the seconds left
			const end = (reset > 1e9 ? reset * 1000 : now + reset * 1000) + PACING.windowMarginMs;
			if (end > now) this.windowEnd = end;
		}
	}

	private forgetWindow(): void {
		this.limit = undefined;
		this.windowEnd = undefined;
		this.windowMs = undefined;
		this.windowOpenedAt = undefined;
	}

	/** What an editor lookup is told when the key is held longer than it may wait. */
	heldError(ctx: PlatformContext): PaceHeldError {
		const seconds = Math.max(1, Math.ceil(this.heldForMs() / 1000));
		return new PaceHeldError(
			ctx.getNode(),
			this.heldForMs() > 0
				? `The platform's rate limit holds this API key for about ${seconds} more seconds`
				: "The platform's rate limit holds this API key: other requests with it are waiting their turn",
			{
				description:
					'Other workflows using this credential were asked by the platform to wait. Try again when that time has passed.',
			},
		);
	}

	/** Resolves when `me` is at the front; rejects when its execution is cancelled. */
	private async turn(ctx: PlatformContext, me: Waiter): Promise<void> {
		const signal = cancelSignal(ctx);
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				me.wake = undefined;
				reject(new NodeOperationError(ctx.getNode(), 'The execution was canceled'));
			};
			me.wake = () => {
				me.wake = undefined;
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			if (signal?.aborted) onAbort();
			else signal?.addEventListener('abort', onAbort, { once: true });
		});
	}
}

// Module-level on purpose: every node run and execution in this n8n process shares the pace of
// its credential. Keyed by a digest of the API key and Base URL (transport/credentials.ts).
const paces = new Map<string, Pace>();

export function paceFor(key: string, requestsPerSecond: number): Pace {
	let pace = paces.get(key);
	if (!pace) paces.set(key, (pace = new Pace(requestsPerSecond)));
	else pace.configure(requestsPerSecond);
	return pace;
}

/** Forgets every pace (tests start each case from the credential's rate). */
export function resetPaces(): void {
	paces.clear();
}
