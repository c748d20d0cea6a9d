/** The pace's numbers, in one place (mutable so that tests can shorten the times). */
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
	/**
	 * A request unanswered this long was let through by the platform's rate limit (which refuses at
	 * once): it no longer counts against the slow start (the platform waits up to 100 s before answering a Wait).
	 */
	letThroughAfterMs: 2_000,
	/** Kept after a window's known end before the first request into the next. */
	windowMarginMs: 250,
	/** A window's length when only its budget is known (the documented 429 asks for 60 s). */
	documentedWindowMs: 60_000,
	/** In a window's last share (and in a shared one), one request unanswered at a time. */
	windowLastShare: 0.25,
	/** Another sender on the window is assumed for this many windows after it was last seen. */
	sharedWindows: 3,
	/**
	 * After a hold, the first send waits a random part of it more, at most this share of it (gate.ts):
	 * processes held at once do not all resume at one instant. After a 429 this process caused by
	 * sending too fast...
	 */
	resumeSpreadShare: 0.05,
	/** ...and after one it got while sending within its share (another sender crowded it). */
	crowdedResumeSpreadShare: 0.25,
	/**
	 * After a bucket's time to its next token that crowded this process, the first send waits a
	 * random part of this more, doubled for each 429 in a row, at most the second.
	 */
	crowdedBackoffMs: 10_000,
	crowdedBackoffMaxMs: 60_000,
	/** Polls of waiting runs and files take at most this share of the rate between them. */
	pollShare: 0.5,
	/** The front request re-checks the gate at least this often (a retry may take its place). */
	sliceMs: 250,
	/** While interactive work waits, bulk work still gets one send in this many (paceQueue.ts). */
	bulkShareEvery: 3,
	/**
	 * A pace with nothing to do for this long is forgotten (what it learned goes with it), so that
	 * the paces kept are those of credentials in use; idle paces are looked for this often.
	 */
	forgetIdleMs: 3_600_000,
	sweepEveryMs: 60_000,
	/** A wait for a slot longer than this is written to n8n's log with its reason (longWaits.ts). */
	logWaitMs: 5_000,
};
