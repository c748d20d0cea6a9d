/**
 * The `n8n start` process of one real n8n (1.x or 2.x) in its own folder and ports: started in its
 * own process group (n8n and its task runners stop together), ready when its APIs answer, its log.
 * N8nInstance (instance.ts) adds the CLI, the imports and the package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { freePort } from '../loopback';
import { N8nClient } from './client';
import { n8nEnvironment } from './environment';
import { n8nEntry, NODE24_BIN, type N8nLine } from './lines';
import { log, tailOf } from './log';
import { killTree, liveChildren, processGroupAlive } from './processes';
import { sleep } from './wait';

/** n8n start exited because its task broker's port was taken. */
class BrokerPortTaken extends Error {}

/** One n8n's folder, ports and environment, and its server process. */
export class N8nServer extends N8nClient {
	readonly line: N8nLine;
	/** The temporary folder holding everything of this instance. */
	readonly folder: string;
	/** N8N_USER_FOLDER; n8n keeps its data in `<userFolder>/.n8n`. */
	readonly userFolder: string;
	readonly port: number;
	/** The task runners' broker port (picked again when another process took it meanwhile). */
	brokerPort: number;
	/** Log of `n8n start` (stdout and stderr). */
	readonly logFile: string;
	protected readonly ownsFolder: boolean;
	/** An n8n another process started and stops (attach()): this one only imports and calls. */
	protected readonly attached: boolean;
	private readonly extraEnv: Record<string, string>;
	protected server: ChildProcess | undefined;
	private serverExit: Promise<void> | undefined;

	protected constructor(
		line: N8nLine,
		folder: string,
		ownsFolder: boolean,
		port: number,
		brokerPort: number,
		env: Record<string, string>,
		attached = false,
	) {
		super(`http://127.0.0.1:${port}`);
		this.line = line;
		this.folder = folder;
		this.ownsFolder = ownsFolder;
		this.userFolder = join(folder, 'user');
		this.port = port;
		this.brokerPort = brokerPort;
		this.logFile = join(folder, 'n8n.log');
		this.extraEnv = env;
		this.attached = attached;
		mkdirSync(join(this.userFolder, '.n8n'), { recursive: true });
		mkdirSync(join(folder, 'tmp'), { recursive: true });
	}

	/** The environment of every n8n process of this instance: isolated, quiet and offline. */
	env(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
		return { ...n8nEnvironment(this), ...this.extraEnv, ...overrides };
	}

	/**
	 * Where the end-to-end runs let Read/Write Files read and write in this n8n (their n8n's
	 * N8N_RESTRICT_FILE_ACCESS_TO: test/e2e/lineN8n.ts): a folder of its own, not the user's.
	 */
	get filesFolder(): string {
		return join(this.folder, 'files');
	}

	get running(): boolean {
		return this.server !== undefined;
	}

	/** Process ID of the running `n8n start` (its main process; task runners are its children). */
	get pid(): number | undefined {
		return this.server?.pid;
	}

	/** Settles when the `n8n start` process exits (undefined when it is not running). */
	get serverExited(): Promise<void> | undefined {
		return this.server ? this.serverExit : undefined;
	}

	/**
	 * `n8n start` in the background; resolves when /healthz/readiness and /rest/settings
	 * answer 200. Active workflows' triggers may register a few seconds later: poll for
	 * their effect, not for this.
	 */
	async start(opts: { timeoutMs?: number } = {}): Promise<void> {
		try {
			await this.startOnce(opts.timeoutMs ?? 120_000);
		} catch (error) {
			// a port is free when picked and taken by another process by the time n8n binds it: the
			// broker binds seconds after the start, so on a busy machine it is the one that clashes
			if (!(error instanceof BrokerPortTaken)) throw error;
			this.brokerPort = await freePort();
			await this.startOnce(opts.timeoutMs ?? 120_000);
		}
	}

	private async startOnce(timeoutMs: number): Promise<void> {
		if (this.server || this.attached) throw new Error('n8n is already running');
		const logBefore = this.logText().length;
		const fd = openSync(this.logFile, 'a');
		const child = spawn(NODE24_BIN, [n8nEntry(this.line), 'start'], {
			cwd: this.folder,
			env: this.env(),
			stdio: ['ignore', fd, fd],
			detached: true, // own process group: stop() signals n8n and its task runners together
		});
		closeSync(fd);
		this.server = child;
		liveChildren.add(child);
		this.serverExit = new Promise((resolveExit) =>
			child.on('exit', () => {
				liveChildren.delete(child);
				resolveExit();
			}),
		);
		const started = Date.now();
		while (Date.now() - started < timeoutMs) {
			if (child.exitCode !== null || child.signalCode !== null) {
				this.server = undefined;
				const message = `n8n start exited early (${child.exitCode ?? child.signalCode})\n${this.logTail()}`;
				if (/Task Broker's port \d+ is already in use/.test(this.logText().slice(logBefore)))
					throw new BrokerPortTaken(message);
				throw new Error(message);
			}
			try {
				// 1.x answers readiness before its REST routes exist: wait for /rest/settings too.
				const ready = await fetch(`${this.baseUrl}/healthz/readiness`, {
					signal: AbortSignal.timeout(2000),
				});
				if (ready.status === 200) {
					const settings = await fetch(`${this.baseUrl}/rest/settings`, {
						signal: AbortSignal.timeout(2000),
					});
					if (settings.status === 200) return;
				}
			} catch {
				// not listening yet
			}
			await sleep(250);
		}
		await this.stop();
		throw new Error(`n8n did not become ready within ${timeoutMs} ms\n${this.logTail()}`);
	}

	/** SIGTERM, then waits (SIGKILL after `timeoutMs`). */
	async stop(timeoutMs = 30_000): Promise<void> {
		if (this.attached) throw new Error('this n8n is shared: the process that started it stops it');
		const child = this.server;
		if (!child) return;
		killTree(child, 'SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const exited = await Promise.race([
			this.serverExit!.then(() => true),
			new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
		]);
		clearTimeout(timer);
		if (!exited) {
			log(`n8n ${this.line.version} did not stop within ${timeoutMs} ms after SIGTERM: killing it`);
			killTree(child, 'SIGKILL');
			await this.serverExit;
		}
		// Its task runners (same process group) end a moment later; do not leave them behind.
		for (let i = 0; i < 50 && processGroupAlive(child.pid!); i++) await sleep(100);
		if (processGroupAlive(child.pid!)) {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// gone
			}
		}
		this.server = undefined;
		this.cookie = undefined;
	}

	/** The last lines of the `n8n start` log. */
	logTail(lines = 80): string {
		if (!existsSync(this.logFile)) return '(no n8n log)';
		return tailOf(this.logFile, readFileSync(this.logFile, 'utf8'), lines);
	}

	/** The whole `n8n start` log. */
	logText(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
	}
}
