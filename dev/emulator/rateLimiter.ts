import type { EmulatorFaults } from './types';

/** What a rate limiter says about one request. */
export type RateVerdict =
	| { ok: true; headers: Record<string, string> }
	| { ok: false; retryAfterSeconds: number; headers: Record<string, string> };

/**
 * The two limiter models production may use, per API key:
 * - a token bucket (rate R, burst B): no headers on success; a 429's `retry_after` is the time
 *   to the next token (in seconds, fractional), its `Retry-After` that rounded up;
 * - a fixed window (L requests per W seconds), as Laravel's throttle middleware: the window opens
 *   at the first request after the last one ended, every answer carries `X-RateLimit-Limit` and
 *   `X-RateLimit-Remaining`, and a 429 (which does not count) carries the seconds left in the
 *   window as `Retry-After` and `retry_after`, and the window's end as `X-RateLimit-Reset`.
 */
export class RateLimiter {
	private readonly buckets = new Map<string, { tokens: number; last: number }>();
	private readonly windows = new Map<string, { count: number; endsAt: number }>();
	private config = '';

	check(key: string, f: EmulatorFaults): RateVerdict | null {
		const config = JSON.stringify([f.rateLimitPerSecond, f.rateLimitBurst, f.rateLimitWindow]);
		if (config !== this.config) {
			this.reset();
			this.config = config;
		}
		if (f.rateLimitWindow && f.rateLimitWindow.limit > 0)
			return this.window(key, f.rateLimitWindow);
		if (f.rateLimitPerSecond > 0) return this.bucket(key, f.rateLimitPerSecond, f.rateLimitBurst);
		return null;
	}

	private bucket(key: string, rps: number, burst: number | undefined): RateVerdict {
		const cap = Math.max(1, burst ?? rps);
		const now = Date.now();
		const b = this.buckets.get(key) ?? { tokens: cap, last: now };
		b.tokens = Math.min(cap, b.tokens + ((now - b.last) / 1000) * rps);
		b.last = now;
		this.buckets.set(key, b);
		if (b.tokens >= 1) {
			b.tokens -= 1;
			return { ok: true, headers: {} };
		}
		const waitSeconds = (1 - b.tokens) / rps;
		return {
			ok: false,
			retryAfterSeconds: Math.max(0.001, Math.round(waitSeconds * 1000) / 1000),
			headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitSeconds))) },
		};
	}

	private window(key: string, w: { limit: number; seconds: number }): RateVerdict {
		const now = Date.now();
		let state = this.windows.get(key);
		if (!state || now >= state.endsAt) {
			state = { count: 0, endsAt: now + w.seconds * 1000 };
			this.windows.set(key, state);
		}
		if (state.count < w.limit) {
			state.count++;
			return {
				ok: true,
				headers: {
					'X-RateLimit-Limit': String(w.limit),
					'X-RateLimit-Remaining': String(w.limit - state.count),
				},
			};
		}
		const left = Math.max(1, Math.ceil((state.endsAt - now) / 1000));
		return {
			ok: false,
			retryAfterSeconds: left,
			headers: {
				'Retry-After': String(left),
				'X-RateLimit-Reset': String(Math.ceil(state.endsAt / 1000)),
				'X-RateLimit-Limit': String(w.limit),
				'X-RateLimit-Remaining': '0',
			},
		};
	}

	reset(): void {
		this.buckets.clear();
		this.windows.clear();
	}
}
