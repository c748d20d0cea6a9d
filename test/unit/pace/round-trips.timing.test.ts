/**
 * Pace: where a refusal costs a long wait, sends spaced by how much the round trip varies (roundTrips.ts, spacing.ts).
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import { Pace, PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { context, intervalOf, usePacingSettings } from './setup';

describe("the round trips' spread", () => {
	usePacingSettings();

	it('where a refusal costs a long wait, spaces sends by how much the round trip varies too', async () => {
		const pace = new Pace(10);
		const slow = await pace.take(context());
		pace.answered(slow, 429, {}, 60000); // a 60 s penalty
		const interval = () => intervalOf(pace);
		const before = interval();
		// answers whose round trips vary by 40 ms
		for (let i = 0; i < 10; i++)
			pace.answered({ seq: 100 + i, sentAt: Date.now() - (i % 2 ? 50 : 10) }, 200);
		expect(interval() - before).toBeGreaterThanOrEqual(35);
		expect(interval() - before).toBeLessThanOrEqual((1000 / pace.rate) * PACING.spreadShareMax + 1);
	});
});
