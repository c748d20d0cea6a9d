/**
 * Rate adaptation shared by every request of one node run.
 *
 * The platform limits requests per API key, so the items of a run (with a Batch Size above 1)
 * and the pages of a list, which all use the same key, must slow down together. One `RateGate`
 * per execution context (a node run) does that, AIMD-style:
 *
 * - until the platform first answers 429, it lets every request through (the callers bound
 *   their own fan-out: the paging helper, the Batch Size);
 * - a 429 pauses every request of the run for the time the platform asks (`retry_after` or
 *   `Retry-After`), and halves the number of requests allowed in flight, once per round: a 429
 *   for a request sent before the last halving does not halve again;
 * - each full window of successes then allows one more request in flight;
 * - requests that are being retried go before requests not sent yet, so a page or item is
 *   rarely refused twice.
 *
 * Waiting uses no timer of its own: a paused gate waits with the caller's `wait` (n8n-workflow's
 * sleep in short slices, which stops at once when the execution is cancelled), and a request
 * waiting for a free slot is woken by the request that frees it.
 */

/** What a request holds while it is in flight. */
export interface RateTicket {
	/** The gate's round when the request was sent. */
	readonly epoch: number;
	released: boolean;
}

interface Waiter {
	resolve(): void;
	reject(error: unknown): void;
}

export class RateGate {
	/** Requests allowed in flight at once: no limit until the platform answers 429. */
	window = Number.POSITIVE_INFINITY;
	inFlight = 0;
	/** Date.now() before which no request is sent. */
	pausedUntil = 0;
	/** Bumped at each halving. */
	epoch = 0;
	/** 429 answers seen in this run (for tests and benchmarks). */
	rateLimited = 0;
	private successes = 0;
	private readonly queue: Waiter[] = [];
	private sleeping = false;

	constructor(private readonly wait: (ms: number) => Promise<void>) {}

	/** Resolves when the request may be sent; `retry` puts it before requests not sent yet. */
	async acquire(retry = false): Promise<RateTicket> {
		if (this.queue.length === 0 && this.open()) {
			this.inFlight++;
		} else {
			// pump() counts the slot as taken before it wakes the waiter
			await new Promise<void>((resolve, reject) => {
				if (retry) this.queue.unshift({ resolve, reject });
				else this.queue.push({ resolve, reject });
				this.pump();
			});
		}
		return { epoch: this.epoch, released: false };
	}

	/** The request got its answer (or failed): its slot goes to the next waiting request. */
	release(ticket: RateTicket): void {
		if (ticket.released) return;
		ticket.released = true;
		this.inFlight--;
		this.pump();
	}

	/** Additive increase: one more request in flight after each full window of successes. */
	succeeded(): void {
		if (!Number.isFinite(this.window)) return;
		if (++this.successes >= this.window) {
			this.window++;
			this.successes = 0;
		}
	}

	/** A 429: everybody waits `waitMs`; the window halves once per round. Call before release(). */
	rateLimitedFor(ticket: RateTicket, waitMs: number): void {
		this.rateLimited++;
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
		if (ticket.epoch === this.epoch) {
			this.window = Math.max(1, Math.floor(Math.min(this.window, this.inFlight) / 2));
			this.epoch++;
			this.successes = 0;
		}
	}

	private open(): boolean {
		return Date.now() >= this.pausedUntil && this.inFlight < this.window;
	}

	private pump(): void {
		if (this.queue.length === 0) return;
		const pause = this.pausedUntil - Date.now();
		if (pause > 0) {
			if (this.sleeping) return;
			this.sleeping = true;
			this.wait(pause).then(
				() => {
					this.sleeping = false;
					this.pump();
				},
				(error) => {
					// cancelled while paused: nobody waiting may send anything
					this.sleeping = false;
					for (const waiter of this.queue.splice(0)) waiter.reject(error);
				},
			);
			return;
		}
		while (this.queue.length > 0 && this.inFlight < this.window) {
			this.inFlight++;
			this.queue.shift()!.resolve();
		}
	}
}

const gates = new WeakMap<object, RateGate>();

/** The gate of a node run (keyed on its execution context, as helpers/agents.ts keys agent definitions). */
export function rateGateOf(ctx: object, wait: (ms: number) => Promise<void>): RateGate {
	let gate = gates.get(ctx);
	if (!gate) gates.set(ctx, (gate = new RateGate(wait)));
	return gate;
}
