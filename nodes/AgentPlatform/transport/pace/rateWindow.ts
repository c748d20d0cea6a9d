/**
 * The platform's window, where its answers tell it (`X-RateLimit-Limit`, `X-RateLimit-Remaining`,
 * `X-RateLimit-Reset`, as Laravel sends on every answer): those counts govern. Alone on the key,
 * the window's remaining requests go without pacing; when the counts show that someone else spends
 * from the same window (another n8n process), one request at a time, each on the news of the one
 * before, so that the processes spend what is left between them as fast as the window allows and
 * overshoot it by one request each at most (a 429 that asks only for the window's rest). Nothing is sent
 * into a window known to be spent: it waits for the window's end, known from `X-RateLimit-Reset`
 * or a 429's wait, and learned for the windows after.
 */
import { PACING } from './settings';
import type { PaceSlot } from './slot';

/** An HTTP header as a number. */
function headerNumber(headers: Record<string, unknown>, name: string): number | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

export class RateWindow {
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

	/** The platform tells its window. */
	get known(): boolean {
		return this.limit !== undefined;
	}

	/** Reads an answer's headers; `sentSeq` is the newest request sent. */
	read(slot: PaceSlot, now: number, headers: Record<string, unknown>, sentSeq: number): void {
		const limit = headerNumber(headers, 'X-RateLimit-Limit');
		const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
		if (limit === undefined || remaining === undefined || limit < 1) {
			// a newer answer without the headers: the platform no longer tells its window, so pace
			if (this.limit !== undefined && slot.seq > this.remainingSeq) this.forget();
			return;
		}
		this.limit = limit;
		// only the newest news counts: answers may arrive out of order
		if (slot.seq > this.remainingSeq) {
			// fewer left than this process's own sends explain (beyond those still in flight): another
			// sender spends from the same window
			// (the first reading of a window: its whole limit less this process's sends into it)
			const firstReading = this.remainingSeq <= this.windowStartSeq;
			const expected = firstReading
				? limit - (slot.seq - this.windowStartSeq)
				: this.remaining - (slot.seq - this.remainingSeq);
			const inFlight = sentSeq - slot.seq;
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

	/** A 429 while the window is known: it is spent, and nothing goes before its end. */
	refused(askedMs: number | undefined, now: number, sentSeq: number): void {
		this.remaining = 0;
		this.remainingSeq = sentSeq;
		if (askedMs === undefined) return;
		const end = now + askedMs + PACING.windowMarginMs;
		this.windowEnd = Math.max(this.windowEnd ?? 0, end);
		if (this.windowMs === undefined && this.windowOpenedAt !== undefined) {
			this.windowMs = end - this.windowOpenedAt;
		}
	}

	/**
	 * How long the front request must wait for the window, from `now`; undefined when the window
	 * says nothing (unknown, or spent with its end unknown: ask at the pace, and learn the end from
	 * the 429).
	 */
	delay(now: number, sentSeq: number, unanswered: number): number | undefined {
		if (this.limit === undefined) return undefined;
		if (this.windowEnd !== undefined && now >= this.windowEnd) {
			// a new window: its whole limit is free; it opens with the next request
			this.remaining = this.limit;
			this.remainingSeq = sentSeq;
			this.windowEnd = undefined;
			this.windowOpenedAt = undefined;
			this.windowStartSeq = sentSeq;
		}
		const left = this.remaining - (sentSeq - this.remainingSeq);
		if (left > 0) {
			// shared, or its last quarter: one request at a time, each sent on the news of the answer
			// before, so that the processes on the window spend what it has left between them and
			// overshoot it by one request each at most (its 429 asks only for the window's rest)
			const careful = now < this.sharedUntil || left <= this.limit * PACING.windowLastShare;
			if (!careful || unanswered === 0) return 0;
			return PACING.slowStartCheckMs;
		}
		if (this.windowEnd !== undefined) return this.windowEnd - now;
		return undefined;
	}

	private forget(): void {
		this.limit = undefined;
		this.windowEnd = undefined;
		this.windowMs = undefined;
		this.windowOpenedAt = undefined;
	}
}
