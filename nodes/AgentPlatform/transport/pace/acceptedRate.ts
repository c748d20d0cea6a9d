/**
 * What the platform accepts, learned from its refusals. The credential's Requests per Second is a
 * ceiling; until the platform refuses a request the pace sends at it. From the first 429 on, never
 * faster than the rate the platform was seen to accept: what this process got through in the
 * window before the refusal (as long as the wait asked, at least PACING.learnMinMs), or the
 * platform's documented rate when this process had not been sending at full pace for that long.
 * A refusal that came while this process sent within its share (withinShare) was another
 * sender's doing: the time a bucket names to its next token then teaches nothing; the gate backs
 * off instead (gate.ts), so that processes on one key take turns rather than each learn a sliver.
 *
 * - A 429 that asks only the time to the bucket's next token tells the platform's rate exactly
 *   (the time since the last accepted send plus that wait): kept, and probed only rarely
 *   (PACING.exactProbeMs).
 * - Otherwise the rate is probed upward slowly: a tenth more after a quiet spell long enough that
 *   the probe's gain pays back a refused probe twice (a refused probe costs the whole wait: 60 s of
 *   requests). A refused probe goes back to the rate before it and doubles the next spell.
 * - A 429 a hair early (a wait well under one interval) teaches nothing: the sends are spaced that
 *   much more (the jitter pad).
 */
import { PACING } from './settings';
import { addKeepingNewest } from './recentTimes';
import type { PaceSlot } from './slot';

/** Sends remembered for learning: about 10 minutes at 10 a second. */
const HISTORY = 6_000;

export class AcceptedRate {
	/** The credential's Requests per Second: a ceiling. */
	configured: number;
	/** The rate now: the ceiling, or lower once the platform refused a request. */
	rate: number;
	/** The rate the platform was seen to accept (with probes upward), from the first 429 on. */
	learned?: number;
	/** The last 429's wait, the price of a refused probe. */
	penaltyMs = 0;
	/** Extra spacing learned from 429s that came a hair early (arrival jitter). */
	jitterPadMs = 0;

	/** A 429 to a request sent at or before this one does not teach again. */
	private learnedAtSeq = 0;
	/** Send times of the requests the platform accepted, and of every send (oldest first). */
	private readonly accepted: number[] = [];
	private readonly sends: number[] = [];
	/** When the rate may next be raised by a probe. */
	private probeAt = 0;
	/** The rate before the current probe: what a refused probe goes back to. */
	private safeRate?: number;
	/** Refused probes since the last one accepted: each doubles the next quiet spell. */
	private probesRefused = 0;
	/** The learned rate came from a bucket's time to its next token. */
	private exact = false;
	/** The send time of the newest request the platform accepted. */
	private lastAcceptedSentAt = 0;

	/** `intervalMs`: the pace's spacing between sends now (pace.ts, from spacing.ts). */
	constructor(
		configured: number,
		private readonly intervalMs: () => number,
	) {
		this.configured = configured;
		this.rate = configured;
	}

	/** The credential's rate changed (it was edited): the new ceiling, and what was learned stays. */
	configure(configured: number): void {
		if (configured === this.configured) return;
		this.configured = configured;
		this.rate = Math.min(configured, this.learned ?? configured);
	}

	/** Answers the platform accepted so far (at most HISTORY). */
	get acceptedCount(): number {
		return this.accepted.length;
	}

	sent(at: number): void {
		addKeepingNewest(this.sends, at, HISTORY);
	}

	/** An accepted request: remembered, and a probe may follow. */
	acceptedAnswer(slot: PaceSlot, now: number): void {
		this.lastAcceptedSentAt = Math.max(this.lastAcceptedSentAt, slot.sentAt);
		addKeepingNewest(this.accepted, slot.sentAt, HISTORY);
		this.probe(now);
	}

	/** A 429 (the platform tells no window): what it teaches. `sentSeq`: the newest request sent. */
	refused(slot: PaceSlot, askedMs: number | undefined, now: number, sentSeq: number): void {
		if (slot.seq > this.learnedAtSeq && this.probing()) {
			this.probeRefused(askedMs ?? 0, now, sentSeq);
		} else if (askedMs !== undefined && askedMs < this.intervalMs() * PACING.jitterShare) {
			// a hair early: requests arrive bunched by that much, so keep that much more between them
			this.jitterPadMs = Math.min(
				(1000 / this.rate) * PACING.jitterShare,
				Math.max(this.jitterPadMs * 1.5, askedMs),
			);
		} else if (slot.seq > this.learnedAtSeq) {
			this.learn(slot, askedMs ?? 0, now, sentSeq);
		}
	}

	/**
	 * Whether the refused request was sent within this process's share: no faster after this
	 * process's previous send than the platform's documented rate allows (or with none before it),
	 * and refused for more than arrival jitter.
	 * Refused then, another sender (another n8n process) spent the key: a crowd, not a platform
	 * slower than this process's pace.
	 */
	withinShare(slot: PaceSlot, askedMs: number | undefined): boolean {
		const documentedMs = 1000 / PACING.documentedRate;
		// a 429 a hair early (a small part of the documented interval) is arrival jitter, not a crowd
		if (askedMs !== undefined && askedMs < documentedMs * PACING.jitterShare) return false;
		let previous: number | undefined;
		for (let i = this.sends.length - 1; i >= 0 && previous === undefined; i--)
			if (this.sends[i] < slot.sentAt) previous = this.sends[i];
		return previous === undefined || slot.sentAt - previous >= documentedMs;
	}

	/** A probe is in effect: the rate is above the last one the platform was seen to accept. */
	private probing(): boolean {
		return (
			this.safeRate !== undefined && this.learned !== undefined && this.learned > this.safeRate
		);
	}

	/** A refused probe: back to the rate before it, and twice as long before the next. */
	private probeRefused(askedMs: number, now: number, sentSeq: number): void {
		this.probesRefused++;
		this.learned = this.safeRate;
		this.rate = this.learned!;
		this.learnedAtSeq = sentSeq;
		this.probeAt = now + askedMs + this.probeWaitMs() * 2 ** this.probesRefused;
	}

	/** A refusal: from now on, never faster than what the platform was seen to accept. */
	private learn(slot: PaceSlot, askedMs: number, now: number, sentSeq: number): void {
		if (askedMs < Math.max(this.intervalMs(), 1000 / PACING.documentedRate)) {
			// crowded: the tokens went to another sender, and the time to the next tells nothing of the rate
			if (this.withinShare(slot, askedMs)) return;
			// less than one interval (ours, or the documented one): a bucket's time to its next token,
			// counted from the last send it accepted, is the platform's interval itself
			const since =
				this.lastAcceptedSentAt > 0 && this.lastAcceptedSentAt < slot.sentAt
					? slot.sentAt - this.lastAcceptedSentAt
					: 1000 / this.rate;
			this.setLearned(Math.min(this.rate, 1000 / (since + askedMs)), askedMs, now, sentSeq, true);
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
		this.setLearned(Math.min(this.rate, Math.max(accepts, floor)), askedMs, now, sentSeq, false);
	}

	/**
	 * The rate learned from a refusal becomes the rate: the one a refused probe goes back to, the
	 * refusal's wait the price of the next probe, and its quiet spell from now.
	 */
	private setLearned(
		rate: number,
		askedMs: number,
		now: number,
		sentSeq: number,
		exact: boolean,
	): void {
		this.learned = Math.min(this.configured, rate);
		this.rate = this.learned;
		this.safeRate = this.learned;
		this.probesRefused = 0;
		this.exact = exact;
		this.learnedAtSeq = sentSeq;
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
		// the rate before lasted through its quiet spell: it is what a refused probe goes back to
		if (this.probing()) this.probesRefused = 0;
		this.safeRate = this.learned;
		this.learned = Math.min(this.configured, this.learned * (1 + PACING.probeShare));
		this.rate = this.learned;
		this.probeAt = now + this.probeWaitMs() * 2 ** this.probesRefused;
	}
}
