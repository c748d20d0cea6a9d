/**
 * The credential's pace (transport/pace.ts) on its own: first come first served, refused requests
 * first, the rate halved once per round of 429s and kept on a jitter 429, the known window's
 * budget used and an exhausted window waited out, and a cancelled execution leaving the queue.
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import type { PlatformContext } from '../../nodes/AgentPlatform/transport/types';
import { Pace, PACING, paceFor, resetPaces } from '../../nodes/AgentPlatform/transport/pace';

function context(signal?: AbortSignal): PlatformContext {
	return {
		getNode: () => ({ name: 'Agent Platform' }),
		getExecutionCancelSignal: () => signal,
	} as unknown as PlatformContext;
}

describe('Pace', () => {
	it('sends in the order asked, spaced by the rate', async () => {
		const pace = new Pace(50);
		const order: number[] = [];
		const times: number[] = [];
		await Promise.all(
			Array.from({ length: 5 }, async (_, i) => {
				await pace.take(context());
				order.push(i);
				times.push(Date.now());
			}),
		);
		expect(order).toEqual([0, 1, 2, 3, 4]);
		for (let i = 1; i < times.length; i++)
			expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(19);
	});

	it('a refused request goes before those not sent yet', async () => {
		const pace = new Pace(20);
		const first = await pace.take(context());
		const order: string[] = [];
		const later = pace.take(context()).then(() => order.push('new'));
		pace.answered(first, 429, {}, { retry_after: 0.1 });
		const retried = pace.take(context(), true).then(() => order.push('retry'));
		await Promise.all([later, retried]);
		expect(order).toEqual(['retry', 'new']);
	});

	it('a 429 holds everybody for the wait asked, and halves the rate once per round', async () => {
		const pace = new Pace(40);
		const slots = [await pace.take(context()), await pace.take(context())];
		const before = Date.now();
		pace.answered(slots[0], 429, {}, { retry_after: 0.2 });
		pace.answered(slots[1], 429, {}, { retry_after: 0.2 });
		expect(pace.rate).toBe(20); // two refusals of one round: halved once
		await pace.take(context(), true);
		expect(Date.now() - before).toBeGreaterThanOrEqual(195);
		expect(pace.stats.rateLimited).toBe(2);
	});

	it('a 429 a hair early (a wait well under one interval) keeps the rate', async () => {
		const pace = new Pace(1);
		const slot = await pace.take(context());
		pace.answered(slot, 429, {}, { retry_after: 0.03 });
		expect(pace.rate).toBe(1);
	});

	it("comes back to the credential's rate a twentieth at a time", async () => {
		const pace = new Pace(100);
		pace.answered(await pace.take(context()), 429, {}, { retry_after: 0.05 });
		expect(pace.rate).toBe(50);
		for (let i = 0; i < 5; i++) pace.answered(await pace.take(context()), 200);
		expect(pace.rate).toBeCloseTo(75);
		for (let i = 0; i < 10; i++) pace.answered(await pace.take(context()), 200);
		expect(pace.rate).toBe(100);
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

	it('a waiting request of a cancelled execution leaves the queue at once', async () => {
		const pace = new Pace(2);
		await pace.take(context());
		const controller = new AbortController();
		const front = pace.take(context()); // waits about half a second
		const cancelled = pace.take(context(controller.signal));
		controller.abort();
		await expect(cancelled).rejects.toThrow('The execution was canceled');
		await front;
		expect(pace.waiting).toBe(0);
	});

	it('is one per credential digest, and follows a changed Requests per Second', () => {
		resetPaces();
		const a = paceFor('digest-a', 1);
		expect(paceFor('digest-a', 1)).toBe(a);
		expect(paceFor('digest-b', 1)).not.toBe(a);
		paceFor('digest-a', 5);
		expect(a.rate).toBe(5);
	});
});
