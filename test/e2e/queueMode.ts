/**
 * What the queue-mode end-to-end tests share: Redis from Debian's redis-server on a free loopback
 * port, and `n8n worker` processes of an n8n instance.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance, NODE24_BIN, n8nInstallDir, sleep, waitFor } from '../../dev/n8n/harness';
import { freePort } from '../../dev/loopback';

/** redis-server from Debian's package (or anywhere on PATH). */
function redisServerBinary(): string {
	for (const candidate of [
		'/usr/bin/redis-server',
		'/usr/sbin/redis-server',
		'/usr/local/bin/redis-server',
	]) {
		if (existsSync(candidate)) return candidate;
	}
	const found = spawnSync('sh', ['-c', 'command -v redis-server'], {
		encoding: 'utf8',
	}).stdout.trim();
	if (found) return found;
	throw new Error(
		'redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it on a fresh machine)',
	);
}

export interface Redis {
	port: number;
	stop(): Promise<void>;
}

export async function startRedis(folder: string): Promise<Redis> {
	const port = await freePort();
	const child = spawn(
		redisServerBinary(),
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			folder,
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await waitFor(
		'redis-server to accept connections',
		() => {
			if (child.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
			return /Ready to accept connections/.test(output);
		},
		{ timeoutMs: 20_000, intervalMs: 50 },
	);
	return {
		port,
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** `n8n worker` of an instance, its output in worker.log; stop() ends its process group. */
export async function startWorker(
	worker: N8nInstance,
	env: Record<string, string>,
	concurrency = 5,
): Promise<{ log(): string; stop(): Promise<void> }> {
	const logFile = join(worker.folder, 'worker.log');
	const fd = openSync(logFile, 'a');
	const child: ChildProcess = spawn(
		NODE24_BIN,
		[
			join(n8nInstallDir(worker.line), 'node_modules', 'n8n', 'bin', 'n8n'),
			'worker',
			`--concurrency=${concurrency}`,
		],
		{
			cwd: worker.folder,
			env: worker.env(env),
			stdio: ['ignore', fd, fd],
			detached: true,
		},
	);
	closeSync(fd);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const text = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		try {
			process.kill(-child.pid!, 'SIGTERM');
		} catch {
			return;
		}
		let timer: NodeJS.Timeout | undefined;
		const done = await Promise.race([
			exited.then(() => true),
			new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 30_000))),
		]);
		clearTimeout(timer);
		if (!done) process.kill(-child.pid!, 'SIGKILL');
		for (let i = 0; i < 50; i++) {
			try {
				process.kill(-child.pid!, 0); // its task runners end a moment later
			} catch {
				break;
			}
			await sleep(100);
		}
	};
	try {
		await waitFor(
			'the n8n worker to be ready',
			() => {
				if (child.exitCode !== null)
					throw new Error(`n8n worker exited (${child.exitCode})\n${text().slice(-4000)}`);
				return text().includes('n8n worker is now ready');
			},
			{ timeoutMs: 120_000, intervalMs: 250 },
		);
	} catch (error) {
		await stop();
		throw error;
	}
	return { log: text, stop };
}
