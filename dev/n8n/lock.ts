/**
 * A lock across processes: a folder made with mkdir (atomic) holding its holder's process id,
 * removed when done. A lock whose holder is no longer alive (a killed process) is taken over,
 * whatever its age; one whose holder lives is waited for, however long it holds it.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { sleep } from './wait';

/** The holder's process id, in the lock's folder. */
const HOLDER = 'pid';
/** A lock without a holder's id this long after its folder was made: its maker died in between. */
const NO_HOLDER_MS = 30_000;

/** True when a process of this id is alive (EPERM: alive, another user's). */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The holder's id, or undefined when none is written (yet). */
function holderOf(lock: string): number | undefined {
	try {
		const pid = Number(readFileSync(join(lock, HOLDER), 'utf8'));
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

/** True when the lock was left by a process that is gone. */
function abandoned(lock: string, madeAtMs: number, holder: number | undefined): boolean {
	if (holder === undefined) return Date.now() - madeAtMs > NO_HOLDER_MS;
	return !processAlive(holder);
}

/**
 * Takes the lock (waiting for a living holder up to `waitMs`) and returns its release: for a hold
 * that spans more than one function (a test file's set-up to its end).
 */
export async function acquireLock(
	lock: string,
	{ waitMs = 10 * 60_000, pollMs = 500 }: { waitMs?: number; pollMs?: number } = {},
): Promise<() => void> {
	const waitStarted = Date.now();
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(join(lock, HOLDER), String(process.pid));
			return () => rmSync(lock, { recursive: true, force: true });
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const taken = statSync(lock, { throwIfNoEntry: false });
			if (!taken) continue; // just released
			const holder = holderOf(lock);
			if (abandoned(lock, taken.mtimeMs, holder)) {
				// still the same dead holder's (another waiter may have taken it over meanwhile)
				if (holderOf(lock) === holder) rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() - waitStarted > waitMs)
				throw new Error(
					`waited ${Math.round(waitMs / 60_000)} minutes for the lock ${lock}, taken by process ${holderOf(lock) ?? '(unknown)'}, which is still alive`,
				);
			await sleep(pollMs);
		}
	}
}

/** `fn` while holding the lock. */
export async function withLock<T>(
	lock: string,
	fn: () => Promise<T>,
	opts: { waitMs?: number; pollMs?: number } = {},
): Promise<T> {
	const release = await acquireLock(lock, opts);
	try {
		return await fn();
	} finally {
		release();
	}
}
