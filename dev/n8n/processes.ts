/**
 * Child processes of the tooling (npm, tar, n8n's CLI, n8n itself): each in its own process group,
 * so that a timeout or a stop ends its children too, and none is left behind when we exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

/** The repository: where commands run unless told otherwise. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	timeoutMs?: number;
	/** 'capture' (default) collects output; 'stderr' streams both outputs to our stderr (progress). */
	stdio?: 'capture' | 'stderr';
	/** Resolve with the result even when the exit code is not 0. */
	allowFailure?: boolean;
	/**
	 * The command's stdout into this file (read back, then removed), not a pipe: a process that
	 * prints megabytes then calls process.exit() (`n8n execute` with an in-memory binary in its
	 * run JSON) loses what a pipe had not taken yet; a file is written at once.
	 */
	stdoutFile?: string;
	/** Label used in error messages. */
	what?: string;
}

const MAX_CAPTURE = 20 * 1024 * 1024;

/** Runs a command with a timeout; rejects with its stdout and stderr when it fails or times out. */
export function run(command: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
	const timeoutMs = opts.timeoutMs ?? 120_000;
	const what = opts.what ?? [command, ...args].join(' ');
	return new Promise((resolvePromise, reject) => {
		const outFile = opts.stdoutFile && opts.stdio !== 'stderr' ? opts.stdoutFile : undefined;
		const outFd = outFile ? openSync(outFile, 'w') : undefined;
		const child = spawn(command, args, {
			cwd: opts.cwd ?? REPO_ROOT,
			env: opts.env ?? process.env,
			stdio: opts.stdio === 'stderr' ? ['ignore', 2, 2] : ['ignore', outFd ?? 'pipe', 'pipe'],
			detached: true, // own process group, so that a timeout also ends its children
		});
		liveChildren.add(child);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (d: Buffer) => {
			if (stdout.length < MAX_CAPTURE) stdout += d.toString();
		});
		child.stderr?.on('data', (d: Buffer) => {
			if (stderr.length < MAX_CAPTURE) stderr += d.toString();
		});
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killTree(child, 'SIGKILL');
		}, timeoutMs);
		const readOutFile = () => {
			if (outFd === undefined || !outFile) return;
			closeSync(outFd);
			stdout = readFileSync(outFile, 'utf8').slice(0, MAX_CAPTURE);
			rmSync(outFile, { force: true });
		};
		child.on('error', (err) => {
			clearTimeout(timer);
			readOutFile();
			reject(new Error(`${what}: could not start: ${err.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			liveChildren.delete(child);
			readOutFile();
			const result = { code, signal, stdout, stderr };
			if (timedOut) {
				reject(new Error(`${what}: timed out after ${timeoutMs} ms\n${formatOutput(result)}`));
			} else if (code !== 0 && !opts.allowFailure) {
				reject(new Error(`${what}: exited with ${code ?? signal}\n${formatOutput(result)}`));
			} else {
				resolvePromise(result);
			}
		});
	});
}

/** A failed command's output, for an error message. */
export function formatOutput(r: { stdout: string; stderr: string }): string {
	return `--- stdout ---\n${r.stdout.trimEnd()}\n--- stderr ---\n${r.stderr.trimEnd()}\n--------------`;
}

// A test process that exits must not leave n8n processes behind.
export const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of liveChildren) killTree(child, 'SIGKILL');
});

/** Signals a child's whole process group (itself when that fails). */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		// n8n's own children (task runners) are in its process group when it was spawned detached.
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

export function processGroupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}
