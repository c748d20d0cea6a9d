/**
 * The gate: when the front request of the line may go (after a 429's hold, as the window allows,
 * else spaced by the interval), and what each answer teaches the parts (see index.ts).
 */
import { throwIfCancelled, waitFor } from '../cancellation';
import type { PlatformContext } from '../types';
import { AcceptedRate } from './acceptedRate';
import { keyHeldError, type PaceHeldError } from './heldError';
import { logLongWait } from './longWaits';
import { RateWindow } from './rateWindow';
import { RoundTripSpread } from './roundTrips';
import { Pollers } from './pollers';
import { PACING } from './settings';
import type { PaceSlot } from './slot';
import { sendIntervalMs } from './spacing';
import { TurnQueue } from './turnQueue';
import { executionOf, workClassOf } from './workClass';

export class Pace {
	/** Counters, for tests and benchmarks. */
	readonly stats = { sent: 0, rateLimited: 0 };

	private readonly queue = new TurnQueue();
	private readonly accepts: AcceptedRate;
	private readonly window = new RateWindow();
	private readonly spread = new RoundTripSpread();
	private readonly pollers = new Pollers();
	/** Date.now() before which nothing is sent (a 429's wait, or an exhausted window's end). */
	private holdUntil = 0;
	/** When the last answer other than 429 arrived. */
	private lastAnsweredAt = 0;
	private nextAt = 0;
	private lastSentAt = 0;
	/** The first send after a pause (a new connection, likely slower to arrive than the next). */
	private coldSeq = 0;
	/** Requests sent and not yet given back (answered or not), by sequence number: when each was sent. */
	private readonly inFlight = new Map<number, number>();
	private sentSeq = 0;

	constructor(configured: number) {
		this.accepts = new AcceptedRate(configured, () => this.intervalMs());
	}

	/** The credential's Requests per Second: a ceiling. */
	get configured(): number {
		return this.accepts.configured;
	}

	/** The rate now: the ceiling, or lower once the platform refused a request. */
	get rate(): number {
		return this.accepts.rate;
	}

	/** The rate the platform was seen to accept (with probes upward), from the first 429 on. */
	get learned(): number | undefined {
		return this.accepts.learned;
	}

	/** The credential's rate changed (it was edited): the new ceiling, and what was learned stays. */
	configure(configured: number): void {
		this.accepts.configure(configured);
	}

	/** Requests waiting for their turn. */
	get waiting(): number {
		return this.queue.length;
	}

	/** Executions with requests waiting for their turn (an entry each while they wait). */
	get executionsWaiting(): number {
		return this.queue.executions;
	}

	/** How long, from now, the platform holds this key (0 when it does not). */
	heldForMs(now = Date.now()): number {
		return Math.max(0, this.holdUntil - now);
	}

	/**
	 * Since when the pace has had nothing to do (nothing waiting, in flight, held or polling):
	 * its last send or answer; undefined while something goes on.
	 */
	idleSince(now = Date.now()): number | undefined {
		if (this.queue.length || this.inFlight.size || this.pollers.active || now < this.holdUntil)
			return undefined;
		return Math.max(this.lastSentAt, this.lastAnsweredAt);
	}

	/** How long nothing sent with this key got through, counted from `since` at the earliest. */
	quietForMs(since: number, now = Date.now()): number {
		return now - Math.max(since, this.lastAnsweredAt);
	}

	/**
	 * Resolves when the request may be sent. `retry`: it was refused before, so it goes first in its
	 * line. `maxWaitMs`: an editor lookup, which fails with PaceHeldError rather than wait longer.
	 * Interactive work goes before bulk work (workClass.ts, turnQueue.ts).
	 */
	async take(ctx: PlatformContext, retry = false, maxWaitMs = Infinity): Promise<PaceSlot> {
		throwIfCancelled(ctx);
		const joinedAt = Date.now();
		const until = joinedAt + maxWaitMs;
		const lookup = Number.isFinite(maxWaitMs);
		// a lookup for someone waiting in the editor goes first, as a retry does: it is one request
		const me = this.queue.join(workClassOf(ctx), executionOf(ctx), retry || lookup);
		const ahead = this.queue.ahead(me);
		const reason = { workClass: me.workClass, ahead, rate: this.rate, heldMs: this.heldForMs() };
		let served = false;
		try {
			for (;;) {
				const now = Date.now();
				if (lookup && now + this.heldForMs(now) > until) throw this.heldError(ctx);
				if (!this.queue.isFront(me)) {
					// a lookup that may wait only so long looks again in slices rather than wait for its turn
					if (lookup) await waitFor(ctx, Math.min(PACING.sliceMs, until - now));
					else await this.queue.turn(ctx, me);
					continue;
				}
				const delay = this.delay(now);
				if (delay <= 0) break;
				if (now + delay > until) throw this.heldError(ctx);
				await waitFor(ctx, Math.min(delay, PACING.sliceMs));
			}
			served = true;
		} finally {
			this.queue.leave(me, served);
		}
		logLongWait(ctx, Date.now() - joinedAt, reason);
		return this.send();
	}

	/**
	 * Learns from an answer (any status; not for a request that got no answer). `askedMs`: the
	 * wait the answer asked for (transport/retryAfter.ts), read once by the request function.
	 */
	answered(
		slot: PaceSlot,
		status: number,
		headers: Record<string, unknown> = {},
		askedMs?: number,
	): void {
		const now = Date.now();
		this.inFlight.delete(slot.seq);
		this.window.read(slot, now, headers, this.sentSeq);
		if (status !== 429) {
			// The first request of a process takes longest to arrive (connections, lazy loading), so
			// the second, spaced from its send, could reach a bucket of one early: space it from here.
			// The same after any pause (the wait of a 429 included): the connection is new again.
			if (slot.seq === 1 || slot.seq === this.coldSeq)
				this.nextAt = Math.max(this.nextAt, now + this.intervalMs());
			this.lastAnsweredAt = now;
			this.spread.measure(now - slot.sentAt);
			this.accepts.acceptedAnswer(slot, now);
			return;
		}
		this.stats.rateLimited++;
		if (this.window.known) this.window.refused(askedMs, now, this.sentSeq);
		else this.accepts.refused(slot, askedMs, now, this.sentSeq);
		this.holdUntil = Math.max(this.holdUntil, now + (askedMs ?? this.intervalMs() * 2));
		// the refused request used nothing up: the platform takes the next one when its wait is over
		// (never earlier than a send already spaced: a late 429 must not bring the next one forward)
		this.nextAt = Math.max(this.nextAt, this.holdUntil);
	}

	/**
	 * The slot is given back: whatever became of its request (answered, refused, a broken body, a
	 * timeout, a cancellation, a thrown error), it is no longer in flight. Once is enough; again does nothing.
	 */
	release(slot: PaceSlot): void {
		this.inFlight.delete(slot.seq);
	}

	/** Requests sent and not yet given back. */
	get sending(): number {
		return this.inFlight.size;
	}

	/** A poll of a waiting run or file begins; call the function returned when it ends. */
	startPolling(): () => void {
		return this.pollers.start();
	}

	/** The shortest time between two polls of one waiting run or file (pollers.ts). */
	pollSpacingMs(): number {
		return this.pollers.spacingMs(this.rate);
	}

	/** What an editor lookup is told when the key is held longer than it may wait. */
	heldError(ctx: PlatformContext): PaceHeldError {
		return keyHeldError(ctx, this.heldForMs());
	}

	private intervalMs(): number {
		return sendIntervalMs(this.accepts, this.spread.ms);
	}

	/** How long the front request must still wait, from `now`. */
	private delay(now: number): number {
		if (now < this.holdUntil) return this.holdUntil - now;
		if (
			this.learned === undefined &&
			!this.window.known &&
			this.accepts.acceptedCount < PACING.slowStartAnswers &&
			this.notYetLetThrough(now) >= Math.max(1, this.accepts.acceptedCount)
		) {
			// nothing known of the platform yet: one more in flight per answer, so that a credential
			// far above the platform's rate costs one or two refusals, not a refusal per request sent
			return PACING.slowStartCheckMs;
		}
		return this.window.delay(now, this.sentSeq, this.lastSentAt) ?? this.nextAt - now;
	}

	/**
	 * Requests in flight the platform may still refuse. A refusal comes at once, so one unanswered
	 * for PACING.letThroughAfterMs was let through: a run held open (a Wait of up to 100 s) then no
	 * longer holds every other request of the key behind the slow start.
	 */
	private notYetLetThrough(now: number): number {
		let count = 0;
		for (const sentAt of this.inFlight.values())
			if (now - sentAt < PACING.letThroughAfterMs) count++;
		return count;
	}

	private send(): PaceSlot {
		const now = Date.now();
		if (now - this.lastSentAt > 2 * this.intervalMs()) this.coldSeq = this.sentSeq + 1;
		// spaced from the actual send: a bucket holding one token gives nothing back for lateness
		this.nextAt = now + this.intervalMs();
		this.lastSentAt = now;
		this.accepts.sent(now);
		this.stats.sent++;
		const slot = { seq: ++this.sentSeq, sentAt: now };
		this.inFlight.set(slot.seq, now);
		return slot;
	}
}
