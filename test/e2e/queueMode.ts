/**
 * n8n in queue mode, as the queue-mode end-to-end tests and the benchmarks run it: Redis from
 * Debian's redis-server on a free loopback port, `n8n worker` processes of an n8n instance, and
 * the whole set (startQueueMode).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	N8nInstance,
	NODE24_BIN,
	n8nInstallDir,
	sleep,
	waitFor,
	type N8nLine,
} from '../../dev/n8n/harness';
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

export type Worker = Awaited<ReturnType<typeof startWorker>>;

/** Redis, an n8n main process (`n8n start`) and its `n8n worker` processes, set up and running. */
export interface QueueMode {
	main: N8nInstance;
	workers: Worker[];
	/** Stops every process and removes the folders. */
	stop(): Promise<void>;
}

/**
 * n8n in queue mode on one SQLite database: Redis, a main process that receives the webhooks and
 * enqueues each execution, and `workers` worker processes running `concurrency` executions each.
 * Every n8n process has its own user folder and its own copy of the package (installed as n8n's
 * community installer does: each one needs it). The credentials and workflows are imported on the
 * main process, and `activate` names the workflows whose triggers it registers.
 */
export async function startQueueMode(
	line: N8nLine,
	opts: {
		credentials: unknown[];
		workflows: Array<{ id: string; name: string }>;
		activate: string[];
		workers?: number;
		concurrency?: number;
	},
): Promise<QueueMode> {
	const folder = await mkdtemp(join(tmpdir(), `n8n-queue-${line.line}-`));
	let redis: Redis | undefined;
	let main: N8nInstance | undefined;
	const instances: N8nInstance[] = [];
	const workers: Worker[] = [];
	const stop = async () => {
		for (const worker of workers) await worker.stop();
		await main?.dispose();
		for (const instance of instances) await instance.dispose();
		await redis?.stop();
		await rm(folder, { recursive: true, force: true });
	};
	try {
		redis = await startRedis(folder);
		const queue = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_SQLITE_DATABASE: join(folder, 'database.sqlite'),
		};
		main = await N8nInstance.withPackage(line, { env: queue });
		for (let i = 0; i < (opts.workers ?? 1); i++) {
			instances.push(
				await N8nInstance.withPackage(line, {
					env: { ...queue, QUEUE_HEALTH_CHECK_PORT: String(await freePort()) },
				}),
			);
		}
		await main.importCredentials(opts.credentials);
		await main.importWorkflows(opts.workflows);
		await main.start();
		await main.setupOwnerAndApiKey();
		for (const instance of instances)
			workers.push(await startWorker(instance, {}, opts.concurrency ?? 5));
		for (const id of opts.activate) await main.activate(id);
	} catch (error) {
		await stop();
		throw error;
	}
	return { main, workers, stop };
}
