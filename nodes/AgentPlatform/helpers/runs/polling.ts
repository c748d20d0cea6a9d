import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { paceOf } from '../../transport/credentials';
import { waitFor } from '../../transport/cancellation';

export interface PollSettings {
	/** Give up after this long, counted from `startedAt`. */
	timeoutMs: number;
	/** When the wait began (Date.now()): a run's start, a file's upload. */
	startedAt: number;
}

export const POLLING = { ratio: 0.05, minIntervalMs: 2000, maxIntervalMs: 30_000 };

/**
 * The one poll loop, for agent runs, file processing and attachments: asks for the record until
 * `done` says so (`done` may throw, for a record that ended badly). Each poll is a request the
 * key's budget pays for (about one a second), so the time between polls grows with the time
 * elapsed (5 % of it, 2 s to 30 s): the end is seen at most max(2 s, 5 %) after it came, and a
 * 10-minute run that the platform waited on for its first 100 s is polled 37 times. Polls are spaced from the start of one to the start of the next, so
 * the time a poll takes does not add to the delay.
 *
 * When the credential's pace is the bottleneck the polls widen: all the polls waiting with one
 * API key take at most half of its rate (transport/pace/), so 20 runs waiting at once leave room for the
 * other requests instead of filling the queue and using up their time.
 */
export async function pollUntil(
	ctx: IExecuteFunctions,
	settings: PollSettings & {
		/** The record as last seen, if any: checked before the first poll. */
		current?: IDataObject;
		fetch: () => Promise<IDataObject>;
		done: (record: IDataObject) => boolean;
		timedOut: () => Error;
	},
): Promise<IDataObject> {
	let record = settings.current;
	if (record !== undefined && settings.done(record)) return record;
	const pace = await paceOf(ctx);
	const endPolling = pace.startPolling();
	try {
		let lastSentAt: number | undefined;
		for (;;) {
			if (record !== undefined && settings.done(record)) return record;
			const elapsed = Date.now() - settings.startedAt;
			const left = settings.timeoutMs - elapsed;
			if (left <= 0) throw settings.timedOut();
			const interval = Math.max(
				POLLING.minIntervalMs,
				Math.min(POLLING.maxIntervalMs, elapsed * POLLING.ratio),
				pace.pollSpacingMs(),
			);
			const since = lastSentAt === undefined ? 0 : Date.now() - lastSentAt;
			await waitFor(ctx, Math.min(left, Math.max(0, interval - since)));
			lastSentAt = Date.now();
			record = await settings.fetch();
		}
	} finally {
		endPolling();
	}
}
