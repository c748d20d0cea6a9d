/** The time kept between two sends, from the rate and what the refusals and round trips taught. */
import type { AcceptedRate } from './acceptedRate';
import { PACING } from './settings';

export function sendIntervalMs(accepts: AcceptedRate, spreadMs: number): number {
	const { rate, penaltyMs, jitterPadMs, learned } = accepts;
	const nominal = 1000 / rate;
	// once a 429 has cost many intervals, a send arriving a little early costs that much again:
	// keep a wider margin, and the round trip's spread, between sends
	if (penaltyMs * rate > 1000 * PACING.longPenaltyIntervals)
		return (
			nominal * (1 + PACING.penaltyMargin) +
			Math.max(jitterPadMs, Math.min(spreadMs, nominal * PACING.spreadShareMax))
		);
	// once learned, a refusal costs a request: some of the spread, as much as the margin again
	const spread = learned === undefined ? 0 : Math.min(spreadMs, nominal * PACING.margin);
	return nominal * (1 + PACING.margin) + Math.max(jitterPadMs, spread);
}
