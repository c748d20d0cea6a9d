/**
 * One pace per credential in the n8n process: every request sent with one API key to one Base
 * URL (items, pages, polls, uploads, every node run and execution at once) waits its turn here.
 *
 * - First come, first served: one queue, so no request can starve. A request refused with 429
 *   goes back to the front: it came first.
 * - It sends at most `rate` requests a second, starting at the credential's Requests per Second.
 * - It learns from the platform: a 429 holds every request until the wait the platform asks for
 *   (`retry_after`, `Retry-After`), and halves the rate once per round (unless the wait is a small
 *   part of one interval: then the request came a hair early); each answer then brings the rate
 *   back by a twentieth of the credential's, never above it.
 * - Where the platform says how many requests its window has left (`X-RateLimit-Limit` and
 *   `X-RateLimit-Remaining`, as Laravel sends on every answer), those are sent without pacing, and
 *   nothing is sent into a window it knows is exhausted: it waits for the window's end, known from
 *   `X-RateLimit-Reset` or a 429's wait, and learned for the windows after.
 *
 * Waiting: only the request at the front sleeps, with n8n-workflow's sleep in slices that stop
 * when its execution is cancelled (transport/cancellation.ts); the others wait for their turn,
 * which the request leaving the front hands on, or for their execution's cancel signal.
 */
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignal, throwIfCancelled, waitFor } from './cancellation';
import { retryAfterMs } from './retryAfter';
import type { PlatformContext } from './types';

export const PACING = {
	/** Sends are spaced a little more than 1/rate apart, so that a bucket is never reached early. */
	margin: 0.04,
	/**
	 * A 429 whose wait is below this share of the interval came a hair early (network jitter at a
	 * bucket of one): it is waited for, and the rate stays.
	 */
	jitterShare: 0.25,
	/** On a 429 (once per round) the rate is multiplied by this... */
	decrease: 0.5,
	/** ...and never goes below this share of the credential's rate. */
	floorShare: 1 / 16,
	/** After each answer the rate grows by this share of the credential's rate, up to it. */
	increaseShare: 0.05,
	/** Kept after a window's known end before the first request into the next. */
	windowMarginMs: 250,
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

export class Pace {
	/** The credential's Requests per Second. */
	configured: number;
	/** The rate now: lower than configured after 429s. */
	rate: number;
	/** Date.now() before which nothing is sent (a 429's wait, or an exhausted window's end). */
	holdUntil = 0;
	/** When the last answer other than 429 arrived. */
	lastAnsweredAt = 0;
	/** Polls waiting for runs or files with this credential, right now. */
	pollers = 0;
	/** Counters, for tests and benchmarks. */
	readonly stats = { sent: 0, rateLimited: 0 };

	private nextAt = 0;
	private readonly queue: Waiter[] = [];
	private sentSeq = 0;
	/** A 429 to a request sent at or before this one does not lower the rate again. */
	private loweredAtSeq = 0;
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

	constructor(configured: number) {
		this.configured = configured;
		this.rate = configured;
	}

	/** The credential's rate changed (it was edited): start again from it. */
	configure(configured: number): void {
		if (configured === this.configured) return;
		this.configured = configured;
		this.rate = configured;
	}

	/** Requests waiting for their turn. */
	get waiting(): number {
		return this.queue.length;
	}

	/** Resolves when the request may be sent. `retry`: it was refused before, so it goes first. */
	async take(ctx: PlatformContext, retry = false): Promise<PaceSlot> {
		throwIfCancelled(ctx);
		const me: Waiter = {};
		if (retry) this.queue.unshift(me);
		else this.queue.push(me);
		try {
			for (;;) {
				if (this.queue[0] !== me) {
					await this.turn(ctx, me);
					continue;
				}
				const delay = this.delay(Date.now());
				if (delay <= 0) break;
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
		this.readWindow(slot, now, headers);
		if (status !== 429) {
			// The first request of a process takes longest to arrive (connections, lazy loading), so
			// the second, spaced from its send, could reach a bucket of one early: space it from here.
			if (slot.seq === 1) this.nextAt = Math.max(this.nextAt, now + this.intervalMs());
			this.lastAnsweredAt = now;
			this.rate = Math.min(this.configured, this.rate + this.configured * PACING.increaseShare);
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
		} else if (
			slot.seq > this.loweredAtSeq &&
			!(asked !== undefined && asked < this.intervalMs() * PACING.jitterShare)
		) {
			this.rate = Math.max(this.configured * PACING.floorShare, this.rate * PACING.decrease);
			this.loweredAtSeq = this.sentSeq;
		}
		this.holdUntil = Math.max(this.holdUntil, now + (asked ?? this.intervalMs() * 2));
		// the refused request used nothing up: the platform takes the next one when its wait is over
		this.nextAt = this.holdUntil;
	}

	/**
	 * The shortest time between two polls of one waiting run or file: the pollers with this
	 * credential take at most PACING.pollShare of its rate together.
	 */
	pollSpacingMs(): number {
		return (Math.max(1, this.pollers) * 1000) / (this.rate * PACING.pollShare);
	}

	private intervalMs(): number {
		return (1000 / this.rate) * (1 + PACING.margin);
	}

	/** How long the front request must still wait, from `now`. */
	private delay(now: number): number {
		if (now < this.holdUntil) return this.holdUntil - now;
		if (this.limit !== undefined) {
			if (this.windowEnd !== undefined && now >= this.windowEnd) {
				// a new window: its whole limit is free
				this.remaining = this.limit;
				this.remainingSeq = this.sentSeq;
				this.windowEnd = undefined;
				this.windowOpenedAt = undefined;
				this.windowStartSeq = this.sentSeq;
			}
			if (this.remaining - (this.sentSeq - this.remainingSeq) > 0) return 0;
			if (this.windowEnd !== undefined) return this.windowEnd - now;
			// spent, and its end unknown: ask at the pace, and learn the end from the 429
		}
		return this.nextAt - now;
	}

	private send(): PaceSlot {
		const now = Date.now();
		// spaced from the actual send: a bucket holding one token gives nothing back for lateness
		this.nextAt = now + this.intervalMs();
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
			this.remaining = remaining;
			this.remainingSeq = slot.seq;
		}
		if (
			remaining === limit - 1 &&
			this.windowOpenedAt === undefined &&
			slot.seq > this.windowStartSeq
		) {
			// this request opened the window: its end follows from the window's length, once known
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
