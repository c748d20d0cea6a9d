/** Waiting in the tooling: a pause, and polling until something holds. */
export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Thrown by a check when what it waits for can no longer come (a process exited): ends the wait at once. */
export class WaitIsOver extends Error {}

/**
 * Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`;
 * a check's other errors are kept for the timeout's message, a WaitIsOver ends it at once.
 */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined | false> | T | undefined | false,
	{ timeoutMs = 60_000, intervalMs = 250 } = {},
): Promise<T> {
	const started = Date.now();
	let lastError: unknown;
	while (Date.now() - started < timeoutMs) {
		try {
			const value = await check();
			if (value !== undefined && value !== false) return value as T;
		} catch (err) {
			if (err instanceof WaitIsOver) throw err;
			lastError = err;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
	);
}
