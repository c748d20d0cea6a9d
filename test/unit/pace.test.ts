/**
 * The credential's pace (transport/pace.ts) on its own: first come first served, refused requests
 * first, the rate the platform accepted learned on a 429 (once per round, not on a jitter 429) and
 * probed upward slowly, a released request still spaced, editor lookups told why they wait, the known window's
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
	const saved = { ...PACING };
	// most cases take several turns before answering: without the slow start of an unknown platform
	beforeEach(() => (PACING.slowStartAnswers = 0));
	afterEach(() => Object.assign(PACING, saved));

	it('knowing nothing of the platform, lets one more request go per answer (slow start)', async () => {
		PACING.slowStartAnswers = saved.slowStartAnswers;
		const pace = new Pace(1000);
		const first = await pace.take(context());
		let secondSent = false;
		const second = pace.take(context()).then((slot) => ((secondSent = true), slot));
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(secondSent).toBe(false); // the first is not answered yet
		pace.answered(first, 200);
		pace.answered(await second, 200);
		// two answers: two may be in flight at once
		const [c, d] = await Promise.all([pace.take(context()), pace.take(context())]);
		expect(d.seq).toBe(c.seq + 1);
	});

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

	it("a 429 holds everybody for the wait asked, and teaches the platform's documented rate when nothing better is known", async () => {
		// scaled: a documented rate of 10 a second, so that 0.2 s is a penalty, not a token's time
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		const slots = [await pace.take(context()), await pace.take(context())];
		const before = Date.now();
		pace.answered(slots[0], 429, {}, { retry_after: 0.2 });
		pace.answered(slots[1], 429, {}, { retry_after: 0.2 });
		// the credential's 1000 is a ceiling: from now on the documented rate, once for the round
		expect(pace.rate).toBe(PACING.documentedRate);
		expect(pace.learned).toBe(PACING.documentedRate);
		await pace.take(context(), true);
		expect(Date.now() - before).toBeGreaterThanOrEqual(195);
		expect(pace.stats.rateLimited).toBe(2);
	});

	it('a 429 a hair early (a wait well under one interval) keeps the rate', async () => {
		const pace = new Pace(1);
		const slot = await pace.take(context());
		pace.answered(slot, 429, {}, { retry_after: 0.03 });
		expect(pace.rate).toBe(1);
		expect(pace.learned).toBeUndefined();
	});

	it('sending at full pace for the window before a refusal, learns what went through', async () => {
		const saved = { ...PACING };
		PACING.learnMinMs = 300;
		PACING.documentedRate = 10;
		try {
			const pace = new Pace(50); // 20 ms apart: about 14 in 300 ms
			const started = Date.now();
			const sentAt: number[] = [];
			let last = await pace.take(context());
			pace.answered(last, 200);
			while (Date.now() - started < 400) {
				last = await pace.take(context());
				sentAt.push(last.sentAt);
				pace.answered(last, 200);
			}
			const refused = await pace.take(context());
			pace.answered(refused, 429, {}, { retry_after: 0.3 });
			// what went through in the 300 ms before the refusal, a second (counted from the sends
			// themselves: a busy machine sends fewer than 50 a second, and that is what is learned)
			const through = sentAt.filter((t) => t >= refused.sentAt - 300).length / 0.3;
			expect(through).toBeGreaterThan(PACING.documentedRate);
			expect(pace.rate).toBeGreaterThanOrEqual(Math.floor(through * 0.9));
			expect(pace.rate).toBeLessThan(50);
		} finally {
			Object.assign(PACING, saved);
		}
	});

	it('a request released after a wait is followed by the next one interval later, not at once', async () => {
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		const refused = await pace.take(context());
		const queued = pace.take(context());
		pace.answered(refused, 429, {}, { retry_after: 0.1 });
		const retried = await pace.take(context(), true);
		const next = await queued;
		// learned: the documented rate (scaled here to ten a second)
		expect(next.sentAt - retried.sentAt).toBeGreaterThanOrEqual(1000 / PACING.documentedRate - 5);
	}, 10_000);

	it("a 429 asking the time to a bucket's next token teaches the platform's interval: since the last accepted send plus that wait", async () => {
		const pace = new Pace(1000);
		const accepted = await pace.take(context());
		pace.answered(accepted, 200);
		const refused = await pace.take(context());
		const since = refused.sentAt - accepted.sentAt;
		pace.answered(refused, 429, {}, { retry_after: 0.2 });
		expect(1000 / pace.rate).toBeCloseTo(since + 200, 5);
		// the platform's own rate: no probe for a long while
		const probeAt = (pace as unknown as { probeAt: number }).probeAt;
		expect(probeAt - Date.now()).toBeGreaterThan(PACING.exactProbeMs - 1000);
	});

	it('a refused probe goes back to the rate before it, and waits twice as long before the next', async () => {
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		pace.answered(await pace.take(context()), 429, {}, { retry_after: 0.3 });
		const learned = pace.rate;
		const spell = (pace as unknown as { probeWaitMs(): number }).probeWaitMs();
		(pace as unknown as { probeAt: number }).probeAt = Date.now() - 1;
		pace.answered({ seq: 99, sentAt: Date.now() }, 200);
		expect(pace.rate).toBeCloseTo(learned * (1 + PACING.probeShare));
		const probe = await pace.take(context(), true);
		const before = Date.now();
		pace.answered(probe, 429, {}, { retry_after: 0.3 });
		expect(pace.rate).toBe(learned);
		const probeAt = (pace as unknown as { probeAt: number }).probeAt;
		expect(probeAt - before).toBeGreaterThanOrEqual(300 + 2 * spell - 5);
	}, 10_000);

	it('where a refusal costs a long wait, spaces sends by how much the round trip varies too', async () => {
		const pace = new Pace(10);
		const slow = await pace.take(context());
		pace.answered(slow, 429, {}, { retry_after: 60 }); // a 60 s penalty
		const interval = () => (pace as unknown as { intervalMs(): number }).intervalMs();
		const before = interval();
		// answers whose round trips vary by 40 ms
		for (let i = 0; i < 10; i++)
			pace.answered({ seq: 100 + i, sentAt: Date.now() - (i % 2 ? 50 : 10) }, 200);
		expect(interval() - before).toBeGreaterThanOrEqual(35);
		expect(interval() - before).toBeLessThanOrEqual((1000 / pace.rate) * PACING.spreadShareMax + 1);
	});

	it('probes upward by a tenth only after a quiet spell that pays back a refused probe', async () => {
		const pace = new Pace(1000);
		const refused = await pace.take(context());
		pace.answered(refused, 429, {}, { retry_after: 0.05 });
		const learned = pace.rate;
		pace.answered(await pace.take(context(), true), 200);
		expect(pace.rate).toBe(learned); // too soon: a refused probe would cost more than it gains
		(pace as unknown as { probeAt: number }).probeAt = Date.now() - 1;
		pace.answered({ seq: 99, sentAt: Date.now() }, 200);
		expect(pace.rate).toBeCloseTo(learned * (1 + PACING.probeShare));
	}, 10_000);

	it('an editor lookup is told how long the key is held instead of waiting', async () => {
		const pace = new Pace(10);
		pace.answered(await pace.take(context()), 429, {}, { retry_after: 60 });
		const started = Date.now();
		await expect(pace.take(context(), false, 2000)).rejects.toThrow(
			/rate limit holds this API key for about (59|60) more seconds/,
		);
		// at once, not after the 2 s a lookup may wait (the margin is for a busy machine)
		expect(Date.now() - started).toBeLessThan(1500);
		expect(pace.waiting).toBe(0);
	});

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
		a.answered({ seq: 1, sentAt: Date.now() }, 429, {}, { retry_after: 1 });
		paceFor('digest-a', 8);
		expect(a.rate).toBe(PACING.documentedRate); // a new ceiling keeps what was learned
	});
});
