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
		if (now < this.holdUntil) return this.holdUntil - now;
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
		return this.window.delay(now, this.sentSeq, this.lastSentAt) ?? this.nextAt - now;
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
			this.spread.measure(now - slot.sentAt);
			this.accepts.acceptedAnswer(slot, now);
			return;
		}
		if (this.window.known) this.window.refused(askedMs, now, this.sentSeq);
		else this.accepts.refused(slot, askedMs, now, this.sentSeq);
		const holdMs = askedMs ?? this.intervalMs() * 2;
		if (now + holdMs > this.holdUntil) {
			this.holdUntil = now + holdMs;
			this.holdAskedMs = holdMs;
		}
		// the refused request used nothing up: the platform takes the next one when its wait is over
		// (never earlier than a send already spaced: a late 429 must not bring the next one forward)
		this.nextAt = Math.max(this.nextAt, this.holdUntil);
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
