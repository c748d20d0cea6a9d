/**
 * How long a request may wait in the pace, and what it is told past that. A request never waits
 * for a hold of its key (a 429's wait) longer than it may: it fails at once, nothing sent.
 */

/** The platform's hold of a key after a 429. */
export interface KeyHold {
	/** The wait the 429 asked for. */
	askedMs: number;
	/** How much of it is left. */
	leftMs: number;
}

export interface WaitLimit {
	/** How long the request may wait in all: an editor lookup's few seconds (PaceHeldError past it). */
	maxWaitMs?: number;
	/**
	 * How long, from now, it may wait for the key's hold: what is left of its rate-limit budget
	 * (asked again at every look, since the budget grows once other processes crowd this one).
	 */
	maxHeldMs?: () => number;
	/** The error it fails with when the hold lasts longer than `maxHeldMs` (else PaceHeldError). */
	heldTooLong?: (hold: KeyHold) => Error;
}
