/**
 * The platform emulator as npm start runs it: dev/emulator/cli.ts in a process of its own (under
 * ts-node), its output in a log file (or here, prefixed, with VERBOSE=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from '../n8n/processes';
import { prefixLines } from './output';

const TS_NODE_BIN = require.resolve('ts-node/dist/bin.js');
const EMULATOR_CLI = join(REPO_ROOT, 'dev', 'emulator', 'cli.ts');

export interface EmulatorProcessOptions {
	port: number;
	apiKey: string;
	workspaceId: string;
	/** Where its output goes unless `verbose`. */
	logFile: string;
	/** Its output on our stderr, each line prefixed "[emulator]". */
	verbose: boolean;
}

export interface EmulatorProcess {
	child: ChildProcess;
	/** Its base URL, as its first output line says it. */
	url: string;
	/** Settles with its exit code (or signal) when it exits. */
	exited: Promise<number | NodeJS.Signals | null>;
	/** SIGTERM, SIGKILL after 10 s; resolves when it has exited. */
	stop(): Promise<void>;
}

/** Starts dev/emulator/cli.ts and resolves once it has printed its base URL. */
export function startEmulatorProcess(opts: EmulatorProcessOptions): Promise<EmulatorProcess> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[
				TS_NODE_BIN,
				'--transpile-only',
				EMULATOR_CLI,
				'--port',
				String(opts.port),
				'--host',
				'127.0.0.1',
				'--api-key',
				opts.apiKey,
				'--workspace-id',
				opts.workspaceId,
			],
			{ cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
		);
		const out = opts.verbose ? null : createWriteStream(opts.logFile, { flags: 'a' });
		const write = (chunk: Buffer) =>
			out ? out.write(chunk) : process.stderr.write(prefixLines('emulator', chunk));
		let pending = '';
		let url: string | undefined;
		const exited = new Promise<number | NodeJS.Signals | null>((r) =>
			child.on('exit', (code, signal) => r(code ?? signal)),
		);
		const stop = async () => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
		};
		child.stdout.on('data', (chunk: Buffer) => {
			write(chunk);
			if (url) return;
			pending += chunk.toString();
			const match = /Base URL:\s*(\S+)/.exec(pending);
			if (match) {
				url = match[1];
				resolve({ child, url, exited, stop });
			}
		});
		child.stderr.on('data', (chunk: Buffer) => {
			write(chunk);
			if (!url) pending += chunk.toString();
		});
		child.on('error', reject);
		void exited.then((code) => {
			if (!url)
				reject(new Error(`the emulator exited (${code}) before it printed its URL:\n${pending}`));
		});
		setTimeout(() => {
			if (!url) {
				child.kill('SIGKILL');
				reject(new Error(`the emulator did not print its URL within 60 s:\n${pending}`));
			}
		}, 60_000).unref();
	});
}
