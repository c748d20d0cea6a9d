/**
 * n8n in queue mode as n8n supports it, as the queue-mode end-to-end tests and the benchmarks run
 * it: PostgreSQL (dev/n8n/postgres.ts: the server .ci/run started, or one of the set-up's own) and
 * Redis from Debian's packages on free loopback ports, an n8n main process (`n8n start`), `n8n
 * worker` processes and a webhook processor (`n8n webhook`), each with its own user folder and its
 * own copy of the packed package (startQueueMode).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../loopback';
import { N8nInstance } from './instance';
import { NODE24_BIN, n8nInstallDir, type N8nLine } from './lines';
import { tailOf } from './log';
import { postgresEnv, postgresServer, type PostgresServer } from './postgres';
import { startRedis, type Redis } from './redis';
import { sleep, waitFor, WaitIsOver } from './wait';

/** One n8n process other than `n8n start` (a worker, a webhook processor), its output in a log. */
export interface N8nProcess {
	pid: number;
	log(): string;
	/** SIGTERM to its process group; SIGKILL after 30 s. */
	stop(): Promise<void>;
	/** SIGKILL to its process group at once, as an out-of-memory kill or a lost machine. */
	kill(): Promise<void>;
}

/** `n8n <args>` of an instance, its output in `<name>.log`, ready when its log says `ready`. */
async function startN8nProcess(
	instance: N8nInstance,
	args: string[],
	name: string,
	ready: string,
	env: Record<string, string> = {},
): Promise<N8nProcess> {
	const logFile = join(instance.folder, `${name}.log`);
	const text = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
	// started again, it writes on in the same log: ready is what it writes from here on
	const from = text().length;
	const fd = openSync(logFile, 'a');
	const child: ChildProcess = spawn(
		NODE24_BIN,
		[join(n8nInstallDir(instance.line), 'node_modules', 'n8n', 'bin', 'n8n'), ...args],
		{
			cwd: instance.folder,
			env: instance.env(env),
			stdio: ['ignore', fd, fd],
			detached: true, // own process group: its task runners end with it
		},
	);
	closeSync(fd);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const groupGone = async () => {
		for (let i = 0; i < 50; i++) {
			try {
				process.kill(-child.pid!, 0); // its task runners end a moment later
			} catch {
				return;
			}
			await sleep(100);
		}
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// gone
		}
	};
	const signal = async (sig: NodeJS.Signals, waitMs: number) => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		try {
			process.kill(-child.pid!, sig);
		} catch {
			return;
		}
		let timer: NodeJS.Timeout | undefined;
		const done = await Promise.race([
			exited.then(() => true),
			new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
		]);
		clearTimeout(timer);
		if (!done) process.kill(-child.pid!, 'SIGKILL');
		await exited;
		await groupGone();
	};
	const handle: N8nProcess = {
		pid: child.pid!,
		log: text,
		stop: () => signal('SIGTERM', 30_000),
		kill: () => signal('SIGKILL', 10_000),
	};
	try {
		await waitFor(
			`n8n ${name} to be ready`,
			() => {
				if (child.exitCode !== null)
					throw new WaitIsOver(`n8n ${name} exited (${child.exitCode})\n${text().slice(-4000)}`);
				return text().slice(from).includes(ready);
			},
			{ timeoutMs: 120_000, intervalMs: 250 },
		);
	} catch (error) {
		await handle.stop();
		throw error;
	}
	return handle;
}

/** `n8n worker` of an instance, its output in worker.log; stop() ends its process group. */
export async function startWorker(
	worker: N8nInstance,
	env: Record<string, string>,
	concurrency = 5,
): Promise<N8nProcess> {
	return await startN8nProcess(
		worker,
		['worker', `--concurrency=${concurrency}`],
		'worker',
		'n8n worker is now ready',
		env,
	);
}

export type Worker = N8nProcess;

/** `n8n webhook` of an instance (serves /webhook/*), its output in webhook.log. */
export async function startWebhookProcessor(instance: N8nInstance): Promise<N8nProcess> {
	return await startN8nProcess(
		instance,
		['webhook'],
		'webhook',
		'Webhook listener waiting for requests',
	);
}

/** Redis, PostgreSQL, an n8n main process, its workers and a webhook processor, running. */
export interface QueueMode {
	main: N8nInstance;
	workers: Worker[];
	/** Starts `workers[index]` again after its stop() or kill(); its log goes on in the same file. */
	startWorkerAgain(index: number): Promise<void>;
	/**
	 * The webhook processor's instance: its baseUrl and postWebhook() reach production webhooks
	 * (never call its start(): its process is `webhookProcess`).
	 */
	webhook: N8nInstance;
	webhookProcess: N8nProcess;
	redis: Redis;
	/** The variables every process shares (queue, database), as a user would set them. */
	sharedEnv: Record<string, string>;
	/** Stops every process, drops the database and removes the folders. */
	stop(): Promise<void>;
}

/**
 * The last lines of the webhook processor's and each worker's log, for a failed test to show (the
 * cluster's folders go with its stop): where an execution stalled or waited.
 */
export function clusterLogTails(queue: QueueMode, lines = 30): string {
	return [
		tailOf('webhook processor', queue.webhookProcess.log(), lines),
		...queue.workers.map((worker, index) => tailOf(`worker ${index}`, worker.log(), lines)),
	].join('\n');
}

/**
 * n8n in queue mode on PostgreSQL: Redis, a main process (editor, API, trigger registration) that
 * enqueues executions, `workers` worker processes running `concurrency` executions each, and a
 * webhook processor that receives production webhooks (WEBHOOK_URL points at it, so the trigger
 * registers its address on the platform) and enqueues their executions. Every n8n process has its
 * own user folder and its own copy of the package (installed as n8n's community installer does:
 * each one needs it); binary data stays in each line's queue-mode default. The credentials and
 * workflows are made through the main's API once it serves (createAll), and `activate` names the
 * workflows it activates.
 */
export async function startQueueMode(
	line: N8nLine,
	opts: {
		credentials: Parameters<N8nInstance['createAll']>[0];
		workflows: Parameters<N8nInstance['createAll']>[1];
		activate: string[];
		workers?: number;
		concurrency?: number;
		/** More variables for every process (n8n's queue settings). */
		env?: Record<string, string>;
	},
): Promise<QueueMode> {
	const folder = await mkdtemp(join(tmpdir(), `n8n-queue-${line.line}-`));
	const database = `n8n_${line.line[0]}_${randomBytes(6).toString('hex')}`;
	let redis: Redis | undefined;
	let postgres: PostgresServer | undefined;
	let databaseMade = false;
	const instances: N8nInstance[] = [];
	let main: N8nInstance | undefined;
	let webhookProcess: N8nProcess | undefined;
	const workers: N8nProcess[] = [];
	const stop = async () => {
		// The processes that enqueue first, the workers last: on SIGTERM n8n's main and webhook
		// processor wait, without a limit, for every execution they enqueued to end, which only a
		// running worker does (workers stopped first left a queued job, and a main that never exits).
		await Promise.all([webhookProcess?.stop(), main?.stop()]);
		await Promise.all(workers.map((w) => w.stop()));
		await Promise.all(instances.map((i) => i.dispose()));
		await redis?.stop();
		if (databaseMade) await postgres?.dropDatabase(database);
		await postgres?.stop();
		await rm(folder, { recursive: true, force: true });
	};
	try {
		redis = await startRedis(folder);
		postgres = await postgresServer();
		await postgres.createDatabase(database);
		databaseMade = true;
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			...postgresEnv(postgres.port, database),
			// 1.x runs a job whose worker died once more (the agent too); 2.x never does
			...(line.line === '1.x' ? { QUEUE_WORKER_MAX_STALLED_COUNT: '0' } : {}),
			...opts.env,
		};
		// the webhook processor's address is every process's webhook URL
		const webhook = await N8nInstance.withPackage(line, { env: shared });
		instances.push(webhook);
		const webhookUrl = line.line === '1.x' ? 'WEBHOOK_URL' : 'N8N_WEBHOOK_URL';
		const sharedEnv = { ...shared, [webhookUrl]: `${webhook.baseUrl}/` };
		main = await N8nInstance.withPackage(line, { env: sharedEnv });
		instances.push(main);
		const workerInstances: N8nInstance[] = [];
		for (let i = 0; i < (opts.workers ?? 2); i++) {
			const instance = await N8nInstance.withPackage(line, {
				env: { ...sharedEnv, QUEUE_HEALTH_CHECK_PORT: String(await freePort()) },
			});
			instances.push(instance);
			workerInstances.push(instance);
		}
		// the first start on a new database runs n8n's migrations: seconds, longer on a busy machine
		await main.start({ timeoutMs: 300_000 });
		await main.setupOwnerAndApiKey();
		const given = await main.createAll(opts.credentials, opts.workflows);
		// the workers and the webhook processor need only the migrated database: they start together
		const [webhookStart, ...started] = await Promise.allSettled([
			startWebhookProcessor(webhook),
			...workerInstances.map((w) => startWorker(w, {}, opts.concurrency ?? 5)),
		]);
		// what started is kept first, for stop() to stop it
		if (webhookStart.status === 'fulfilled') webhookProcess = webhookStart.value;
		for (const result of started) if (result.status === 'fulfilled') workers.push(result.value);
		for (const result of started) if (result.status === 'rejected') throw result.reason;
		if (webhookStart.status === 'rejected') throw webhookStart.reason;
		for (const id of opts.activate) await main.activate(given.get(id) ?? id);
		const startWorkerAgain = async (index: number) => {
			workers[index] = await startWorker(workerInstances[index], {}, opts.concurrency ?? 5);
		};
		return {
			main,
			workers,
			startWorkerAgain,
			webhook,
			webhookProcess: webhookStart.value,
			redis,
			sharedEnv,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
