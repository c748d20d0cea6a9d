/**
 * The lock across processes (dev/n8n/lock.ts: the shared n8n's imports, the package's build): a
 * live holder keeps it however old it is; a dead holder's lock is taken over at once.
 */
import { spawn } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { withLock } from '../../dev/n8n/lock';

let work: string;
beforeEach(() => (work = mkdtempSync(join(tmpdir(), 'process-lock-test-'))));
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** A lock folder as another process leaves it: its holder's id, made `ageMs` ago. */
function heldBy(pid: number, ageMs: number): string {
	const lock = join(work, 'a.lock');
	mkdirSync(lock);
	writeFileSync(join(lock, 'pid'), String(pid));
	const madeAt = new Date(Date.now() - ageMs);
	utimesSync(lock, madeAt, madeAt);
	return lock;
}

/** A process that ran and exited: its id names no live process. */
async function exitedPid(): Promise<number> {
	const child = spawn(process.execPath, ['-e', '0']);
	await new Promise((resolve) => child.on('exit', resolve));
	return child.pid!;
}

it('waits for a live holder, however old its lock, and says who holds it', async () => {
	const holder = spawn('sleep', ['30']);
	try {
		const lock = heldBy(holder.pid!, 60 * 60_000);
		let ran = false;
		await expect(
			withLock(lock, async () => (ran = true), { waitMs: 1500, pollMs: 100 }),
		).rejects.toThrow(`taken by process ${holder.pid}, which is still alive`);
		expect(ran).toBe(false);
		expect(readFileSync(join(lock, 'pid'), 'utf8')).toBe(String(holder.pid));
	} finally {
		holder.kill('SIGKILL');
	}
});

it("takes over a dead holder's lock at once, even a fresh one, and releases it", async () => {
	const lock = heldBy(await exitedPid(), 0);
	const holderInside = await withLock(lock, async () => readFileSync(join(lock, 'pid'), 'utf8'), {
		waitMs: 1000,
	});
	expect(holderInside).toBe(String(process.pid));
	expect(existsSync(lock)).toBe(false);
});

it('lets one holder in at a time', async () => {
	const lock = join(work, 'b.lock');
	const inside: string[] = [];
	const hold = (name: string) =>
		withLock(
			lock,
			async () => {
				inside.push(`${name} in`);
				await new Promise((resolve) => setTimeout(resolve, 200));
				inside.push(`${name} out`);
			},
			{ pollMs: 20 },
		);
	await Promise.all([hold('first'), hold('second')]);
	expect(inside).toEqual(['first in', 'first out', 'second in', 'second out']);
});
