/**
 * The gate of one credential's pace: when the request at the front of the queue may go (after a 429's
 * hold, as the platform's window allows, else spaced by the interval; at first a slow start), the
 * slots of the requests sent, and what each answer teaches the parts (see index.ts).
 */
import type { AcceptedRate } from './acceptedRate';
import { RateWindow } from './rateWindow';
import { RoundTripSpread } from './roundTrips';
import { PACING } from './settings';
import type { PaceSlot } from './slot';
import type { KeyHold } from './waitLimit';
import { sendIntervalMs } from './spacing';

export class Gate {
	private readonly window = new RateWindow();
	private readonly spread = new RoundTripSpread();
	/** Date.now() before which nothing is sent (a 429's wait, or an exhausted window's end). */
	private holdUntil = 0;
	/** The wait the 429 that set `holdUntil` asked for (or the interval's fallback when it named none). */
	private holdAskedMs = 0;
	/** When the first send after the hold may go: its end, or a random moment after it (resumeSpreadMs). */
	private resumeAt = 0;
	/** The newest 429 came while this process sent within its share: another sender crowds the key (read by Pace.crowd). */
	crowded = false;
	/** 429s since the last accepted answer (read by Pace.crowd). */
	refusals = 0;
	/** When the last answer other than 429 arrived. */
	private lastAnsweredAt = 0;
	/** When the next send may go by the interval alone. */
	private nextAt = 0;
	private lastSentAt = 0;
	/** The first send after a pause (a new connection, likely slower to arrive than the next). */
	private coldSeq = 0;
	/** Requests sent and not yet given back (answered or not), by sequence number: when each was sent. */
	private readonly inFlight = new Map<number, number>();
	private sentSeq = 0;

	constructor(private readonly accepts: AcceptedRate) {}

	/** How long, from now, the platform holds this key (0 when it does not). */
	heldForMs(now: number): number {
		return Math.max(0, this.holdUntil - now);
	}

	/** The platform's hold of this key: how long it asked for, and how long is left from now. */
	hold(now: number): KeyHold {
		return { askedMs: this.holdAskedMs, leftMs: this.heldForMs(now) };
	}

	/** Since when the gate has had nothing to do (nothing in flight or held): its last send or answer. */
	idleSince(now: number): number | undefined {
		if (this.inFlight.size || now < this.holdUntil) return undefined;
		return Math.max(this.lastSentAt, this.lastAnsweredAt);
	}

	/** How long nothing sent with this key got through, counted from `since` at the earliest. */
	quietForMs(since: number, now: number): number {
		return now - Math.max(since, this.lastAnsweredAt);
	}

	/** Requests sent and not yet given back. */
	get sending(): number {
		return this.inFlight.size;
	}

	intervalMs(): number {
		return sendIntervalMs(this.accepts, this.spread.ms);
	}

	/** How long the front request must still wait, from `now`. */
	delay(now: number): number {
		if (now < this.resumeAt) return this.resumeAt - now;
		if (
			this.accepts.learned === undefined &&
			!this.window.known &&
			this.accepts.acceptedCount < PACING.slowStartAnswers &&
			this.notYetLetThrough(now) >= Math.max(1, this.accepts.acceptedCount)
		) {
			// nothing known of the platform yet: one more in flight per answer, so that a credential
			// far above the platform's rate costs one or two refusals, not a refusal per request sent
			return PACING.slowStartCheckMs;
		}
		return this.window.delay(now, this.sentSeq, this.notYetLetThrough(now)) ?? this.nextAt - now;
	}

	/** The front request goes: its slot, in flight until given back. */
	send(): PaceSlot {
		const now = Date.now();
		if (now - this.lastSentAt > 2 * this.intervalMs()) this.coldSeq = this.sentSeq + 1;
		// spaced from the actual send: a bucket holding one token gives nothing back for lateness
		this.nextAt = now + this.intervalMs();
		this.lastSentAt = now;
		this.accepts.sent(now);
		const slot = { seq: ++this.sentSeq, sentAt: now };
		this.inFlight.set(slot.seq, now);
		return slot;
	}

	/** Learns from an answer (see Pace.answered). */
	answered(slot: PaceSlot, status: number, headers: Record<string, unknown>, askedMs?: number) {
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
			this.crowded = false;
			this.refusals = 0;
			this.spread.measure(now - slot.sentAt);
			this.accepts.acceptedAnswer(slot, now);
			return;
		}
		// sent within its share, or a retry after the wait the platform asked while crowded already
		this.crowded =
			this.accepts.withinShare(slot, askedMs) || (this.crowded && slot.sentAt >= this.holdUntil);
		this.refusals++;
		if (this.window.known) this.window.refused(askedMs, now, this.sentSeq);
		else this.accepts.refused(slot, askedMs, now, this.sentSeq);
		const holdMs = askedMs ?? this.intervalMs() * 2;
		if (now + holdMs > this.holdUntil) {
			this.holdUntil = now + holdMs;
			this.holdAskedMs = holdMs;
			this.resumeAt = this.holdUntil + this.resumeSpreadMs(holdMs);
		}
		// the refused request used nothing up: the platform takes the next one when its wait is over
		// (never earlier than a send already spaced: a late 429 must not bring the next one forward)
		this.nextAt = Math.max(this.nextAt, this.resumeAt);
	}

	/**
	 * How much later than its hold's end the first send goes: every process a crowd held at once
	 * would otherwise resume at one instant and collide again. A random part of the hold, wider for
	 * a crowded process; none where a window ends the hold (the next window has its whole budget).
	 * A hold shorter than the documented interval is a bucket's time to its next token: a process
	 * crowded off it backs off, longer each time in a row (exponential back-off with jitter), so
	 * that one sender keeps the key at a time rather than all refused by turns.
	 */
	private resumeSpreadMs(holdMs: number): number {
		if (this.window.known) return 0;
		if (holdMs < 1000 / PACING.documentedRate) {
			if (!this.crowded) return 0;
			const backoffMs = PACING.crowdedBackoffMs * 2 ** Math.min(this.refusals - 1, 10);
			return Math.random() * Math.min(PACING.crowdedBackoffMaxMs, backoffMs);
		}
		const share = this.crowded ? PACING.crowdedResumeSpreadShare : PACING.resumeSpreadShare;
		return Math.random() * holdMs * share;
	}

	/** The slot is given back (see Pace.release). */
	release(slot: PaceSlot): void {
		this.inFlight.delete(slot.seq);
	}

	/**
	 * Requests in flight the platform may still refuse. A refusal comes at once, so one unanswered
	 * for PACING.letThroughAfterMs was let through: a run the platform waits on (a Wait, up to 100 s) then no
	 * longer holds every other request of the key behind the slow start.
	 */
	private notYetLetThrough(now: number): number {
		let count = 0;
		for (const sentAt of this.inFlight.values())
			if (now - sentAt < PACING.letThroughAfterMs) count++;
		return count;
	}
}
