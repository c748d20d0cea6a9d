/**
 * Pace: who sends next and when: first come first served, refused requests first, a released request still spaced, editor lookups told why they wait, a cancelled execution leaving the queue, one pace per credential.
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import { Pace, PACING, paceFor, resetPaces } from '../../../nodes/AgentPlatform/transport/pace';
import { context, stopClock, usePacingSettings } from './setup';

describe("the pace's order", () => {
	const saved = usePacingSettings();

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
				const slot = await pace.take(context());
				order.push(i);
				// when the pace let it go: the moment this code runs after it can come later (a busy
				// machine's event loop), bringing it closer to the next one (18 ms seen for 20)
				times.push(slot.sentAt);
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
		// asked at the instant the first was sent (a pause past the gate's 50 ms lets 'new' go first)
		const startClock = stopClock(first.sentAt);
		const later = pace.take(context()).then(() => order.push('new'));
		pace.answered(first, 429, {}, 100);
		const retried = pace.take(context(), true).then(() => order.push('retry'));
		startClock();
		await Promise.all([later, retried]);
		expect(order).toEqual(['retry', 'new']);
	});

	it('a request released after a wait is followed by the next one interval later, not at once', async () => {
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		const refused = await pace.take(context());
		const queued = pace.take(context());
		pace.answered(refused, 429, {}, 100);
		const retried = await pace.take(context(), true);
		const next = await queued;
		// learned: the documented rate (scaled here to ten a second)
		expect(next.sentAt - retried.sentAt).toBeGreaterThanOrEqual(1000 / PACING.documentedRate - 5);
	}, 10_000);

	it('an editor lookup is told how long the key is held instead of waiting', async () => {
		const pace = new Pace(10);
		pace.answered(await pace.take(context()), 429, {}, 60000);
		const started = Date.now();
		await expect(pace.take(context(), false, { maxWaitMs: 2000 })).rejects.toThrow(
			/rate limit holds this API key for about (59|60) more seconds/,
		);
		// at once, not after the 2 s a lookup may wait (the margin is for a busy machine)
		expect(Date.now() - started).toBeLessThan(1500);
		expect(pace.waiting).toBe(0);
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
		a.answered({ seq: 1, sentAt: Date.now() }, 429, {}, 1000);
		paceFor('digest-a', 8);
		expect(a.rate).toBe(PACING.documentedRate); // a new ceiling keeps what was learned
	});
});
