import { sleep } from 'n8n-workflow';

/** What a race gives when the watch fired before the read settled. */
export const DUE: unique symbol = Symbol('due');

export interface DeadlineRace {
	/** `pending`'s value, or DUE when the watch fired first (a later rejection is ignored then). */
	race<T>(pending: Promise<T>): Promise<T | typeof DUE>;
	/** Ends the watch; resolves once its loop has ended. */
	stop(): Promise<void>;
}

/**
 * The one race of a read against its time: a watch fires once `due()` holds, checked every
 * `stepMs()` until stopped. No timers in community nodes, so the watch is a loop of short sleeps
 * with n8n-workflow's `sleep`; it holds nothing once stopped.
 */
export function deadlineRace(due: () => boolean, stepMs: () => number): DeadlineRace {
	let watching = true;
	let fire: (value: typeof DUE) => void = () => undefined;
	const fired = new Promise<typeof DUE>((resolve) => (fire = resolve));
	const watch = (async () => {
		while (watching) {
			if (due()) return fire(DUE);
			await sleep(stepMs());
		}
	})();
	return {
		race: async (pending) => {
			pending.catch(() => undefined);
			return await Promise.race([pending, fired]);
		},
		stop: async () => {
			watching = false;
			await watch;
		},
	};
}
