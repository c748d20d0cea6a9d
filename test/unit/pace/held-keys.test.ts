/**
 * A key the platform holds (a 429's wait) longer than a request may wait (transport/pace/pace.ts,
 * waitLimit.ts): the request fails at once with its own error, sends nothing and leaves the queue;
 * a hold that fits its budget is waited out as before. Holds of a few milliseconds stand in for
 * the fitting ones; nothing here reads the clock.
 */
import { Pace, type KeyHold } from '../../../nodes/AgentPlatform/transport/pace';
import { context, inMode, usePacingSettings } from './setup';

usePacingSettings();

const HOUR = 3_600_000;
const BUDGET = 300_000;

class HeldTooLong extends Error {
	constructor(readonly hold: KeyHold) {
		super('held past the budget');
	}
}

/** How a run limits its wait: its rate-limit budget, and its own error past it. */
const budget = (maxHeldMs = BUDGET) => {
	const joinedAt = Date.now();
	return {
		maxHeldMs: () => maxHeldMs - (Date.now() - joinedAt),
		heldTooLong: (hold: KeyHold) => new HeldTooLong(hold),
	};
};

/** A pace whose one request was answered 429 asking for `askedMs`. */
async function heldPace(askedMs: number): Promise<Pace> {
	const pace = new Pace(10);
	pace.answered(await pace.take(context()), 429, {}, askedMs);
	return pace;
}

describe('a key held longer than a request may wait', () => {
	it('fails the next request at once with what was asked and what is left, nothing sent', async () => {
		const pace = await heldPace(HOUR);
		const failure = await pace.take(inMode('chat'), false, budget()).catch((error) => error);
		expect(failure).toBeInstanceOf(HeldTooLong);
		const { hold } = failure as HeldTooLong;
		expect(hold.askedMs).toBe(HOUR);
		expect(hold.leftMs).toBeGreaterThan(BUDGET);
		expect(hold.leftMs).toBeLessThanOrEqual(HOUR);
		expect(pace.stats.sent).toBe(1); // only the refused one
		expect(pace.waiting).toBe(0);
		expect(pace.executionsWaiting).toBe(0);
	});

	it('fails every request of every class and execution, each at once', async () => {
		const pace = await heldPace(HOUR);
		const contexts = [
			inMode('chat'),
			inMode('webhook'),
			inMode('trigger'),
			context(undefined, { getExecutionId: () => 'nightly' }),
		];
		const outcomes = await Promise.allSettled(
			contexts.map(async (ctx, index) => await pace.take(ctx, index % 2 === 1, budget())),
		);
		for (const outcome of outcomes) {
			expect(outcome.status).toBe('rejected');
			expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(HeldTooLong);
		}
		expect(pace.stats.sent).toBe(1);
		expect(pace.waiting).toBe(0);
	});

	it('fails a request with only part of its budget left when the hold outlasts that part', async () => {
		// a 429 that fits the whole budget, but not a request that already waited most of it
		const pace = await heldPace(200_000);
		const failure = await pace.take(context(), true, budget(50_000)).catch((error) => error);
		expect(failure).toBeInstanceOf(HeldTooLong);
		expect((failure as HeldTooLong).hold.askedMs).toBe(200_000);
		expect(pace.stats.sent).toBe(1);
	});

	it('waits out a hold that fits, then sends', async () => {
		const pace = await heldPace(30);
		const slot = await pace.take(inMode('chat'), false, budget());
		pace.answered(slot, 200);
		expect(pace.stats.sent).toBe(2);
		expect(pace.heldForMs()).toBe(0);
	});

	it('a shorter 429 after a longer one neither shortens the hold nor changes what it asked', async () => {
		const pace = new Pace(100);
		const first = await pace.take(context());
		const second = await pace.take(context());
		pace.answered(first, 429, {}, HOUR);
		pace.answered(second, 429, {}, 10);
		const failure = await pace.take(context(), false, budget()).catch((error) => error);
		expect((failure as HeldTooLong).hold.askedMs).toBe(HOUR);
		expect((failure as HeldTooLong).hold.leftMs).toBeGreaterThan(BUDGET);
	});

	it('never fails a request whose budget is spent while the key is not held', async () => {
		const pace = new Pace(10);
		pace.answered(await pace.take(context()), 200);
		// a long request before (a run the platform waited on) spent the budget; nothing holds the key
		const slot = await pace.take(context(), true, budget(-1));
		expect(slot.seq).toBe(2);
	});

	it('without a budget a request waits out any hold (the default: no limit)', async () => {
		const pace = await heldPace(30);
		const slot = await pace.take(context());
		expect(slot.seq).toBe(2);
	});

	it('an editor lookup is still told with PaceHeldError, not the run error', async () => {
		const pace = await heldPace(HOUR);
		await expect(pace.take(context(), false, { maxWaitMs: 2000, ...budget() })).rejects.toThrow(
			/rate limit holds this API key for about \d+ more seconds/,
		);
	});
});
