/**
 * One credential's pace: a request waits in its class's queue (paceQueue.ts), then, at the
 * front, for the gate (gate.ts); what each answer teaches goes to the gate and the parts behind it
 * (see index.ts).
 */
import { throwIfCancelled, waitFor } from '../cancellation';
import type { PlatformContext } from '../types';
import { AcceptedRate } from './acceptedRate';
import { Gate } from './gate';
import { keyHeldError, type PaceHeldError } from './heldError';
import { logLongWait } from './longWaits';
import { Pollers } from './pollers';
import { PACING } from './settings';
import type { PaceSlot } from './slot';
import { PaceQueue } from './paceQueue';
import type { WaitLimit } from './waitLimit';
import { executionOf, workClassOf } from './workClass';

export class Pace {
	/** Counters, for tests and benchmarks. */
	readonly stats = { sent: 0, rateLimited: 0 };

	private readonly queue = new PaceQueue();
	private readonly accepts: AcceptedRate;
	private readonly gate: Gate;
	private readonly pollers = new Pollers();

	constructor(configured: number) {
		this.accepts = new AcceptedRate(configured, () => this.gate.intervalMs());
		this.gate = new Gate(this.accepts);
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

	/** Requests waiting in the queue. */
	get waiting(): number {
		return this.queue.length;
	}

	/** Executions with requests waiting in the queue (an entry each while they wait). */
	get executionsWaiting(): number {
		return this.queue.executions;
	}

	/** How long, from now, the platform holds this key (0 when it does not). */
	heldForMs(now = Date.now()): number {
		return this.gate.heldForMs(now);
	}

	/**
	 * Since when the pace has had nothing to do (nothing waiting, in flight, held or polling):
	 * its last send or answer; undefined while something goes on.
	 */
	idleSince(now = Date.now()): number | undefined {
		return this.queue.length || this.pollers.active ? undefined : this.gate.idleSince(now);
	}

	/**
	 * While other senders crowd this process off the key (its newest 429 came while it sent within
	 * its share): how many 429s it got since its last accepted request. Undefined otherwise.
	 */
	crowd(): { refusals: number } | undefined {
		return this.gate.crowded ? { refusals: this.gate.refusals } : undefined;
	}

	/** How long nothing sent with this key got through, counted from `since` at the earliest. */
	quietForMs(since: number, now = Date.now()): number {
		return this.gate.quietForMs(since, now);
	}

	/**
	 * Resolves when the request may be sent. `retry`: it was refused before, so it goes first in its
	 * class's queue. `limit`: how long it may wait (waitLimit.ts); past that it fails at once, at
	 * joining or at the front, rather than wait: an editor lookup (`maxWaitMs`) with PaceHeldError,
	 * a run whose rate-limit budget the key's hold outlasts (`maxHeldMs`) with `heldTooLong`'s error.
	 * Interactive work goes before bulk work (workClass.ts, paceQueue.ts).
	 */
	async take(ctx: PlatformContext, retry = false, limit: WaitLimit = {}): Promise<PaceSlot> {
		throwIfCancelled(ctx);
		const joinedAt = Date.now();
		const until = joinedAt + (limit.maxWaitMs ?? Infinity);
		const lookup = Number.isFinite(until);
		// a lookup for someone waiting in the editor goes first, as a retry does: it is one request
		const me = this.queue.join(workClassOf(ctx), executionOf(ctx), retry || lookup);
		const ahead = this.queue.ahead(me);
		const reason = { workClass: me.workClass, ahead, rate: this.rate, heldMs: this.heldForMs() };
		let served = false;
		try {
			for (;;) {
				const now = Date.now();
				const heldMs = this.heldForMs(now);
				if (now + heldMs > until) throw this.heldError(ctx);
				if (heldMs > 0 && heldMs > (limit.maxHeldMs?.() ?? Infinity))
					throw limit.heldTooLong?.(this.gate.hold(now)) ?? this.heldError(ctx);
				if (!this.queue.isFront(me)) {
					// a lookup that may wait only so long looks again in slices rather than wait to reach the front
					if (lookup) await waitFor(ctx, Math.min(PACING.sliceMs, until - now));
					else await this.queue.untilFront(ctx, me);
					continue;
				}
				const delay = this.gate.delay(now);
				if (delay <= 0) break;
				if (now + delay > until) throw this.heldError(ctx);
				await waitFor(ctx, Math.min(delay, PACING.sliceMs));
			}
			served = true;
		} finally {
			this.queue.leave(me, served);
		}
		logLongWait(ctx, Date.now() - joinedAt, reason);
		this.stats.sent++;
		return this.gate.send();
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
		if (status === 429) this.stats.rateLimited++;
		this.gate.answered(slot, status, headers, askedMs);
	}

	/**
	 * The slot is given back: whatever became of its request (answered, refused, a broken body, a
	 * timeout, a cancellation, a thrown error), it is no longer in flight. Once is enough; again does nothing.
	 */
	release(slot: PaceSlot): void {
		this.gate.release(slot);
	}

	/** Requests sent and not yet given back. */
	get sending(): number {
		return this.gate.sending;
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
}
