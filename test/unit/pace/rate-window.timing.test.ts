/**
 * Pace: a known window's budget used, a shared window's rest spread, an exhausted window waited out, a window no longer told forgotten (rateWindow.ts).
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import { Pace, PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { context, usePacingSettings } from './setup';

describe("the platform's window", () => {
	usePacingSettings();

	it('spreads what is left of a shared window (its counts fall faster than its own sends) over the time to its end', async () => {
		const pace = new Pace(1);
		const window = (remaining: number) => ({
			'x-ratelimit-limit': '100',
			'x-ratelimit-remaining': String(remaining),
			'x-ratelimit-reset': String((Date.now() + 1000) / 1000),
		});
		pace.answered(await pace.take(context()), 200, window(99));
		pace.answered(await pace.take(context()), 200, window(98));
		// another process took 48 meanwhile
		pace.answered(await pace.take(context()), 200, window(49));
		const a = await pace.take(context());
		const b = await pace.take(context());
		// 49 left for about a second: not at once, about 20 ms apart
		expect(b.sentAt - a.sentAt).toBeGreaterThanOrEqual(12);
	});

	it("uses a known window's budget at once, and sends nothing into an exhausted window before it ends", async () => {
		const pace = new Pace(1); // one a second would take 3 s for these
		const window = (remaining: number) => ({
			'x-ratelimit-limit': '4',
			'x-ratelimit-remaining': String(remaining),
		});
		const started = Date.now();
		pace.answered(await pace.take(context()), 200, window(3));
		for (let remaining = 2; remaining >= 0; remaining--) {
			pace.answered(await pace.take(context()), 200, window(remaining));
		}
		expect(Date.now() - started).toBeLessThan(500);
		// spent: the platform's reset (an epoch in seconds) says when the next window opens
		const resetAt = Math.ceil((Date.now() + 1000) / 1000);
		const probe = await pace.take(context());
		pace.answered(probe, 429, {
			...window(0),
			'x-ratelimit-reset': String(resetAt),
			'retry-after': '1',
		});
		await pace.take(context(), true);
		expect(Date.now()).toBeGreaterThanOrEqual(resetAt * 1000 + PACING.windowMarginMs - 5);
	});

	it('forgets a window the platform no longer tells, and paces again', async () => {
		const pace = new Pace(10);
		const window = { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '49' };
		pace.answered(await pace.take(context()), 200, window);
		pace.answered(await pace.take(context()), 200, {});
		const before = Date.now();
		await pace.take(context());
		await pace.take(context());
		expect(Date.now() - before).toBeGreaterThanOrEqual(95);
	});
});
