/**
 * A lock across processes: a folder made with mkdir (atomic), removed when done. A lock older than
 * `staleMs` was left by a killed process and is taken over.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';

import { sleep } from './wait';

export async function withLock<T>(
	lock: string,
	fn: () => Promise<T>,
	{ staleMs = 10 * 60_000, pollMs = 500 }: { staleMs?: number; pollMs?: number } = {},
): Promise<T> {
	const waitStarted = Date.now();
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const held = statSync(lock, { throwIfNoEntry: false });
			if (!held) continue; // just released
			if (Date.now() - held.mtimeMs > staleMs) {
				rmSync(lock, { recursive: true, force: true }); // left by a killed process
				continue;
			}
			if (Date.now() - waitStarted > staleMs)
				throw new Error(`waited ${Math.round(staleMs / 60_000)} minutes for the lock ${lock}`);
			await sleep(pollMs);
		}
	}
	try {
		return await fn();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}
