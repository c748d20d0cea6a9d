/**
 * The words of a rate limit the node gave up on: what the platform asked for, how long the node
 * waited, and, where other processes on the key crowded this one off it, what this process saw.
 */

/** How long a request waited on 429 answers, against its budget (retryPolicy.ts). */
export interface RateLimitWait {
	waitedMs: number;
	budgetMs: number;
	/** Nothing was sent: the key is held by an earlier 429 for this much more. */
	heldMs?: number;
	/** This process was crowded off the key: its 429s since its last accepted request. */
	refusals?: number;
}

/** "1 second", "30 seconds". */
export function seconds(ms: number): string {
	const value = Math.round(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}

/** A 429 the node gave up on (or, nothing sent, the hold it left): what the platform asked for. */
export function describeRateLimit(failure: { askedMs?: number; rateLimit?: RateLimitWait }): {
	message: string;
	description: string;
} {
	const asked = failure.askedMs;
	const limit = failure.rateLimit;
	const held = limit?.heldMs;
	const heldWords =
		held === undefined
			? ''
			: `About ${seconds(held)} of it are left. Nothing was sent, so no agent ran twice.`;
	const askedWords = [
		asked === undefined ? 'It gave no wait.' : `The platform asked to wait ${seconds(asked)}.`,
		heldWords,
	]
		.filter(Boolean)
		.join(' ');
	const advice = `Too many requests were sent with this API key, maybe by other workflows or n8n instances. Run again later, or lower "Requests per Second" in the credential.`;
	const waited = limit ? seconds(limit.waitedMs) : undefined;
	if (limit?.refusals !== undefined) {
		return {
			message: `The platform's rate limit let no request of this n8n process through for ${waited}, while other processes used the same API key`,
			description: `This process sent within its share of the key's rate, yet its ${limit.refusals} last requests were answered 429 (too many requests): other n8n processes sending with the same key (the workers of a queue-mode setup, another n8n instance) were using its whole rate. ${askedWords} When other processes crowd it, the node waits up to ${seconds(limit.budgetMs)}. Give the busiest workflows an API key of their own, spread their runs over time, or run again later.`,
		};
	}
	if (limit && held !== undefined && held <= limit.budgetMs) {
		return {
			message: `The platform's rate limit holds this API key for ${seconds(held)} more, longer than the node still waits (${seconds(Math.max(0, limit.budgetMs - limit.waitedMs))})`,
			description: `${askedWords} ${advice}`,
		};
	}
	if (limit && asked !== undefined && asked > limit.budgetMs) {
		// the message names the wait asked: the description adds only what is left of it
		return {
			message: `The platform's rate limit asks to wait ${seconds(asked)}, longer than the node waits (${seconds(limit.budgetMs)})`,
			description: heldWords ? `${heldWords} ${advice}` : advice,
		};
	}
	return {
		message: waited
			? `The platform's rate limit let no request through for ${waited}`
			: "The platform's rate limit was reached",
		description: `Every request sent with this API key was answered 429 (too many requests)${waited ? ` for ${waited}` : ''}. ${askedWords} Other workflows or n8n instances may be using the same key: lower "Requests per Second" in the credential, or run again later.`,
	};
}
