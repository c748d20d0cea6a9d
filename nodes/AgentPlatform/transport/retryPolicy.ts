/**
 * What is retried, how often and after how long. Every POST of this API creates something or
 * spends credits: it is sent again only when it cannot have reached the platform (a 429, or a
 * connection that failed before sending). The objects are mutable so that tests can shorten them.
 */

/**
 * How long one request may wait for the platform's answer when the operation sets no timeout of
 * its own (operations that wait on purpose, such as Execute, pass theirs).
 */
export const REQUEST_TIMEOUT = {
	defaultMs: 60_000,
	/** A streamed call's error body is read this long at most (it is a few hundred bytes). */
	errorBodyMs: 10_000,
};

export const RETRY = {
	maxAttempts: 6,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/** A 5xx's Retry-After above this is not waited for: the error says so instead. */
	maxRetryAfterMs: 5 * 60_000,
	/**
	 * The rate-limit budget: how long a request keeps waiting on 429 answers while nothing sent
	 * with its API key gets through. A wait the platform asks for beyond it fails at once.
	 */
	maxRateLimitWaitMs: 5 * 60_000,
	/**
	 * The budget while other processes on the key crowd this one off it (its 429s come while it
	 * sends within its share): the key is busy, not refused, so its work waits its turn longer.
	 * Bounded, so that a key the platform refuses for good still fails (docs/rate-limits.md).
	 */
	maxCrowdedWaitMs: 15 * 60_000,
	/** A read that got no answer within its timeout is asked this many times in all, not six: 2 minutes, not 6. */
	maxTimeoutAttempts: 2,
};

/** Answers after which a read may be asked again (429 has its own rules, in the pace). */
export const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** Errors raised before a byte of the request left: safe to retry even for credit-spending POSTs. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
/** Whether a request that failed with this error code cannot have left (safe to say "not started"). */
export function neverSent(code: string | undefined): boolean {
	return code !== undefined && NOT_SENT_CODES.has(code);
}

const NETWORK_CODES = new Set([
	...NOT_SENT_CODES,
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ERR_BAD_RESPONSE',
]);

/** Exponential, with jitter: half the step fixed, half random. */
export function backoffMs(attempt: number): number {
	const exponential = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return exponential / 2 + Math.random() * (exponential / 2);
}

/** The first error code along an error's causes (n8n wraps the socket's error). */
export function errorCode(error: unknown): string | undefined {
	let current = error as { code?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; current && depth < 4; depth++) {
		if (typeof current.code === 'string' && current.code) return current.code;
		current = current.cause as typeof current;
	}
	return undefined;
}

/** The innermost message along an error's causes. */
export function errorDetail(error: unknown): string {
	let current = error as { message?: unknown; cause?: unknown } | undefined;
	let detail = '';
	for (let depth = 0; current && depth < 4; depth++) {
		if (typeof current.message === 'string' && current.message) detail = current.message;
		current = current.cause as typeof current;
	}
	return detail || 'no answer';
}

export interface NetworkVerdict {
	code?: string;
	detail: string;
	timedOut: boolean;
	/** Whether another attempt may be made after `attempt` attempts. */
	retry: boolean;
}

/** Whether a request that got no answer may be sent again. */
export function judgeNetworkError(
	error: unknown,
	options: { idempotent: boolean; attempt: number; bodySentWhole?: () => boolean },
): NetworkVerdict {
	const code = errorCode(error);
	const detail = errorDetail(error);
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(detail);
	const notSent =
		(code !== undefined && NOT_SENT_CODES.has(code)) || options.bodySentWhole?.() === false;
	const retryable =
		notSent ||
		(options.idempotent && (timedOut || (code !== undefined && NETWORK_CODES.has(code))));
	const attempts = timedOut && !notSent ? RETRY.maxTimeoutAttempts : RETRY.maxAttempts;
	return { code, detail, timedOut, retry: retryable && options.attempt < attempts };
}
