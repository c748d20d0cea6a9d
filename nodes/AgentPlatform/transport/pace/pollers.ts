/** The polls waiting for runs or files with one credential: together they take a share of its rate. */
import { PACING } from './settings';

export class Pollers {
	/** Polls going on right now. */
	private count = 0;

	/** Whether a poll goes on. */
	get active(): boolean {
		return this.count > 0;
	}

	/** A poll begins; call the function returned when it ends (once counts, twice does nothing). */
	start(): () => void {
		this.count++;
		let ended = false;
		return () => {
			if (!ended) this.count--;
			ended = true;
		};
	}

	/** The shortest time between two polls of one run or file: all take PACING.pollShare of `rate`. */
	spacingMs(rate: number): number {
		return (Math.max(1, this.count) * 1000) / (rate * PACING.pollShare);
	}
}
