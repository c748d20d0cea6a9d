/**
 * Redis from Debian's package (`redis-server`) on a free loopback port, without persistence: the
 * queue of n8n's queue mode (queueMode.ts) and the store of the Redis chat memory's tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

import { freePort } from '../loopback';
import { waitFor } from './wait';

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
	/** Stops it and starts a new redis-server on the same port (its queue empty: no persistence). */
	restart(): Promise<void>;
}

/** redis-server on `port` (a free one unless told), until it accepts connections. */
async function redisProcess(folder: string, port: number): Promise<ChildProcess> {
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
	return child;
}

export async function startRedis(folder: string): Promise<Redis> {
	const port = await freePort();
	let child = await redisProcess(folder, port);
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	};
	return {
		port,
		stop,
		async restart() {
			await stop();
			child = await redisProcess(folder, port);
		},
	};
}
