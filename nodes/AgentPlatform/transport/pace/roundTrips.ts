/**
 * How much the round trips vary: where a 429 costs a long wait, sends are also spaced by this
 * spread, since a request arriving a hair early would cost the whole wait (see index.ts).
 */
import { PACING } from './settings';
import { addKeepingNewest } from './recentTimes';

export class RoundTripSpread {
	private readonly roundTrips: number[] = [];
	/** The spread of the recent round trips (ms). */
	ms = 0;

	measure(roundTripMs: number): void {
		addKeepingNewest(this.roundTrips, roundTripMs, PACING.roundTrips);
		const sorted = [...this.roundTrips].sort((a, b) => a - b);
		// the slowest tenth aside: one stalled answer is not the arrival jitter
		this.ms = sorted[Math.floor((sorted.length - 1) * 0.9)] - sorted[0];
	}
}
