/**
 * Pace: the rate the platform accepted, learned on a 429 (once per round, not on a jitter 429; exactly from a bucket's time to its next token) and probed upward slowly (acceptedRate.ts).
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import { Pace, PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { acceptedRateOf, context, usePacingSettings } from './setup';

describe('the accepted rate', () => {
	usePacingSettings();

	it("a 429 holds everybody for the wait asked, and teaches the platform's documented rate when nothing better is known", async () => {
		// the platform's documented rate, about one request a second per key (docs/platform-assumptions.md,
		// row 11), scaled ×10 here, so that 0.2 s is a penalty, not a token's time
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		const slots = [await pace.take(context()), await pace.take(context())];
		const before = Date.now();
		pace.answered(slots[0], 429, {}, 200);
		pace.answered(slots[1], 429, {}, 200);
		// the credential's 1000 is a ceiling: from now on the documented rate, once for the round
		expect(pace.rate).toBe(10);
		expect(pace.learned).toBe(10);
		await pace.take(context(), true);
		expect(Date.now() - before).toBeGreaterThanOrEqual(195);
		expect(pace.stats.rateLimited).toBe(2);
	});

	it('a 429 a hair early (a wait well under one interval) keeps the rate', async () => {
		const pace = new Pace(1);
		const slot = await pace.take(context());
		pace.answered(slot, 429, {}, 30);
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
			pace.answered(refused, 429, {}, 300);
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

	it("a 429 asking the time to a bucket's next token teaches the platform's interval: since the last accepted send plus that wait", async () => {
		const pace = new Pace(1000);
		const accepted = await pace.take(context());
		pace.answered(accepted, 200);
		const refused = await pace.take(context());
		const since = refused.sentAt - accepted.sentAt;
		pace.answered(refused, 429, {}, 200);
		expect(1000 / pace.rate).toBeCloseTo(since + 200, 5);
		// the platform's own rate: no probe for a long while
		const probeAt = acceptedRateOf(pace).probeAt;
		expect(probeAt - Date.now()).toBeGreaterThan(PACING.exactProbeMs - 1000);
	});

	it('a refused probe goes back to the rate before it, and waits twice as long before the next', async () => {
		PACING.documentedRate = 10;
		const pace = new Pace(1000);
		pace.answered(await pace.take(context()), 429, {}, 300);
		const learned = pace.rate;
		const spell = acceptedRateOf(pace).probeWaitMs();
		acceptedRateOf(pace).probeAt = Date.now() - 1;
		pace.answered({ seq: 99, sentAt: Date.now() }, 200);
		expect(pace.rate).toBeCloseTo(learned * (1 + PACING.probeShare));
		const probe = await pace.take(context(), true);
		const before = Date.now();
		pace.answered(probe, 429, {}, 300);
		expect(pace.rate).toBe(learned);
		const probeAt = acceptedRateOf(pace).probeAt;
		expect(probeAt - before).toBeGreaterThanOrEqual(300 + 2 * spell - 5);
	}, 10_000);

	it('probes upward by a tenth only after a quiet spell that pays back a refused probe', async () => {
		const pace = new Pace(1000);
		// refused right after an accepted request: this process spent the bucket (a first request
		// refused would be another sender's doing, which teaches no rate)
		pace.answered(await pace.take(context()), 200);
		const refused = await pace.take(context());
		pace.answered(refused, 429, {}, 50);
		const learned = pace.rate;
		pace.answered(await pace.take(context(), true), 200);
		expect(pace.rate).toBe(learned); // too soon: a refused probe would cost more than it gains
		acceptedRateOf(pace).probeAt = Date.now() - 1;
		pace.answered({ seq: 99, sentAt: Date.now() }, 200);
		expect(pace.rate).toBeCloseTo(learned * (1 + PACING.probeShare));
	}, 10_000);
});
