/**
 * A 429 that came while this process sent within its share is another process's doing (a crowd,
 * docs/rate-limits.md "Queue mode: several processes"): the wait is honoured, the first send after
 * it waits a random part of it more (a quarter at most; a twentieth after a 429 of its own making),
 * and the budget of the requests waiting grows. The figures are the documented 60 s wait and the
 * shares docs/rate-limits.md states, written out.
 */
import { Pace } from '../../../nodes/AgentPlatform/transport/pace';
import { context, delayOf, stopClock } from './setup';

const WAIT = 60_000;

// the clock stops once the refused request is answered (stopClock): a loaded machine that pauses
// the test before it reads the delay would otherwise take that pause off it
afterEach(() => jest.restoreAllMocks());

describe('a 429 that crowded this process off the key', () => {
	it('a first request refused: a crowd; the first send after the wait goes up to a quarter of it later', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.999);
		const pace = new Pace(1);
		const slot = await pace.take(context());
		stopClock();
		pace.answered(slot, 429, {}, WAIT);
		expect(pace.crowd()).toEqual({ refusals: 1 });
		expect(pace.heldForMs()).toBeLessThanOrEqual(WAIT);
		const delay = delayOf(pace);
		expect(delay).toBeGreaterThan(WAIT + 14_900);
		expect(delay).toBeLessThanOrEqual(WAIT + 15_000);
	});

	it('spread at random: the same wait, another draw, another moment', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const pace = new Pace(1);
		const slot = await pace.take(context());
		stopClock();
		pace.answered(slot, 429, {}, WAIT);
		expect(delayOf(pace)).toBeGreaterThan(WAIT - 100);
		expect(delayOf(pace)).toBeLessThanOrEqual(WAIT);
	});

	it('refused right after its own request (faster than one a second): its own doing, a twentieth at most', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.999);
		const pace = new Pace(1000);
		pace.answered(await pace.take(context()), 200);
		const slot = await pace.take(context());
		stopClock();
		pace.answered(slot, 429, {}, WAIT);
		expect(pace.crowd()).toBeUndefined();
		expect(delayOf(pace)).toBeGreaterThan(WAIT + 2_900);
		expect(delayOf(pace)).toBeLessThanOrEqual(WAIT + 3_000);
	});

	it('an accepted answer ends the crowd; its refusals are counted until then', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0); // no back-off drawn: the test goes on at once
		const pace = new Pace(1000);
		// 400 ms asked: the time to a bucket's next token (more than arrival jitter), spent by another process
		pace.answered(await pace.take(context()), 429, {}, 400);
		pace.answered(await pace.take(context(), true), 429, {}, 400);
		expect(pace.crowd()).toEqual({ refusals: 2 });
		pace.answered(await pace.take(context(), true), 200);
		expect(pace.crowd()).toBeUndefined();
	});
});
