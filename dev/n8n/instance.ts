/**
 * One real n8n (1.x or 2.x) with the packed package, isolated in its own temporary folder with
 * its own free ports: its CLI (imports, `n8n execute`) here, its server (`n8n start`: server.ts)
 * and, through N8nClient, its APIs.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../loopback';
import { installCommunityPackage } from './communityInstall';
import {
	agentPlatformCredential,
	EXAMPLE_CREDENTIALS,
	exampleNames,
	loadExample,
	type PlatformEndpoint,
} from './examples';
import { CACHE_DIR, ensureN8n, n8nEntry, NODE24_BIN, type N8nLine } from './lines';
import { withLock } from './lock';
import { log } from './log';
import { packPackage } from './pack';
import { formatOutput, run, type RunResult } from './processes';
import { parseRunJson, runError, type ExecuteResult, type N8nRun } from './runResults';
import { N8nServer } from './server';
import { sleep } from './wait';

export interface N8nInstanceOptions {
	/** Port of the editor/API (default: a free port). */
	port?: number;
	/** Parent of the temporary folder (default: the OS temp folder). */
	baseDir?: string;
	/** Use this folder instead of a new temporary one (kept by dispose()). */
	folder?: string;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
	/**
	 * Read/Write Files may read and write only in the instance's filesFolder (created), not in the
	 * user's default: what the end-to-end files' workflows read, each in a folder of its own there.
	 */
	ownFiles?: boolean;
}

/**
 * A running n8n's folder, port, API key and the owner's session: enough for another process to
 * attach to it. The session is shared because n8n in production allows five logins a minute per
 * email, and the run's files attach far more often than that.
 */
export interface SharedN8n {
	folder: string;
	port: number;
	apiKey: string;
	/** The owner's login cookie (`n8n-auth=…`), bound to the browser id N8nClient sends. */
	cookie: string;
}

/** A file name's part no other import into the same folder has (several test files share one). */
function uniqueSuffix(): string {
	return `${Date.now()}-${randomUUID().slice(0, 8)}`;
}

/** One isolated n8n: its own user folder, database, ports and log. */
export class N8nInstance extends N8nServer {
	/** Creates the instance's folders and picks its ports (n8n itself is installed by ensureN8n). */
	static async create(line: N8nLine, opts: N8nInstanceOptions = {}): Promise<N8nInstance> {
		if (!existsSync(n8nEntry(line)) || !existsSync(NODE24_BIN)) {
			throw new Error(
				`n8n ${line.version} is not installed in ${CACHE_DIR}: call ensureN8n() first`,
			);
		}
		const folder =
			opts.folder ?? (await mkdtemp(join(opts.baseDir ?? tmpdir(), `n8n-e2e-${line.line}-`)));
		const port = opts.port ?? (await freePort());
		let brokerPort = await freePort();
		while (brokerPort === port) brokerPort = await freePort();
		const env = { ...opts.env };
		if (opts.ownFiles) {
			env.N8N_RESTRICT_FILE_ACCESS_TO = join(folder, 'files');
			await mkdir(env.N8N_RESTRICT_FILE_ACCESS_TO, { recursive: true });
		}
		return new N8nInstance(line, folder, opts.folder === undefined, port, brokerPort, env);
	}

	/**
	 * The n8n another process runs (the end-to-end run's n8n of a line, test/setup/e2eLines.ts): its
	 * CLI and APIs from here; start(), stop() and dispose() are the other process's.
	 */
	static attach(line: N8nLine, places: SharedN8n): N8nInstance {
		const instance = new N8nInstance(line, places.folder, false, places.port, 0, {}, true);
		instance.apiKey = places.apiKey;
		instance.cookie = places.cookie;
		return instance;
	}

	/** What attach() needs of a running instance (handed to other processes as JSON). */
	get places(): SharedN8n {
		if (!this.apiKey || !this.cookie)
			throw new Error('no API key or session: call setupOwnerAndApiKey() first');
		return { folder: this.folder, port: this.port, apiKey: this.apiKey, cookie: this.cookie };
	}

	/**
	 * The usual start of an e2e suite: n8n of this line installed (ensureN8n), the package built and
	 * packed (once per process), a new instance, and the tarball installed into it as n8n's community
	 * installer would.
	 */
	static async withPackage(line: N8nLine, opts: N8nInstanceOptions = {}): Promise<N8nInstance> {
		await ensureN8n(line);
		const tarball = await packPackage();
		const instance = await N8nInstance.create(line, opts);
		try {
			await instance.installPackage(tarball);
		} catch (error) {
			await instance.dispose();
			throw error;
		}
		return instance;
	}

	/**
	 * Runs one n8n CLI command. While `n8n start` runs, a CLI process gets its own task
	 * runner broker port (two brokers on one port clash).
	 */
	async cli(
		args: string[],
		opts: { timeoutMs?: number; allowFailure?: boolean; stdoutFile?: string } = {},
	): Promise<RunResult> {
		const overrides: Record<string, string> = {};
		if (this.server || this.attached) overrides.N8N_RUNNERS_BROKER_PORT = String(await freePort());
		return await run(NODE24_BIN, [n8nEntry(this.line), ...args], {
			cwd: this.folder,
			env: this.env(overrides),
			timeoutMs: opts.timeoutMs ?? 120_000,
			allowFailure: opts.allowFailure,
			stdoutFile: opts.stdoutFile,
			what: `n8n ${this.line.version} ${args.join(' ')}`,
		});
	}

	/** Installs the packed package as n8n's community package installer does. */
	async installPackage(tarball: string): Promise<void> {
		await installCommunityPackage(this.userFolder, tarball, this.env());
	}

	/** `n8n import:credentials` of an array of `{ id, name, type, data }` (plain data; n8n encrypts it). */
	async importCredentials(credentials: unknown[]): Promise<void> {
		const file = join(this.folder, `credentials-${uniqueSuffix()}.json`);
		await writeFile(file, JSON.stringify(credentials, null, 2), 'utf8');
		await this.importCli(['import:credentials', `--input=${file}`]);
	}

	/**
	 * An `n8n import:…` call. n8n 1.x logs a failed import and exits 0 ("An error occurred while
	 * importing"): that output fails here. Files importing into one shared n8n at once (its SQLite
	 * database) import one at a time in its folder.
	 */
	private async importCli(args: string[]): Promise<void> {
		await withLock(
			join(this.folder, 'import.lock'),
			async () => {
				const result = await this.cli(args);
				const output = `${result.stdout}\n${result.stderr}`;
				if (/An error occurred while importing/i.test(output))
					throw new Error(`n8n ${this.line.version} ${args[0]} failed:\n${output}`);
			},
			{ waitMs: 5 * 60_000, pollMs: 100 },
		);
	}

	/** The example workflows of examples/ and the credential they use, pointed at `platform`. */
	async importExamples(platform: PlatformEndpoint): Promise<void> {
		await this.importCredentials([
			agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
		]);
		await this.importWorkflows(exampleNames().map(loadExample));
	}

	/** Imports all workflows in one `n8n import:workflow --separate` call (each call costs seconds). */
	async importWorkflows(workflows: Array<{ id: string; name: string }>): Promise<void> {
		const dir = join(this.folder, `workflows-${uniqueSuffix()}`);
		await mkdir(dir, { recursive: true });
		for (const workflow of workflows) {
			await writeFile(join(dir, `${workflow.id}.json`), JSON.stringify(workflow, null, 2), 'utf8');
		}
		await this.importCli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/**
	 * Runs a workflow from its Manual Trigger and returns its run. On a running n8n (its own or the
	 * run's shared one) as the editor's "Execute workflow" does: `POST /rest/workflows/<id>/run`, then
	 * the saved execution read through the public API; `stdout` is what n8n logged meanwhile. On an
	 * n8n that is not running, `n8n execute --id=<id> --rawOutput` (a process of its own: 10 s of CPU
	 * to start, 45 s at load 20). A failed run is returned with `failed: true`.
	 */
	async execute(workflowId: string, opts: { timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const timeoutMs = opts.timeoutMs ?? 180_000;
		return this.running || this.attached
			? this.executeInServer(workflowId, timeoutMs)
			: this.executeInCli(workflowId, timeoutMs);
	}

	private async executeInServer(workflowId: string, timeoutMs: number): Promise<ExecuteResult> {
		const started = Date.now();
		const logBefore = this.logText().length;
		if (!this.cookie) await this.login();
		const workflow = await this.rest<{ nodes: Array<{ name: string; type: string }> }>(
			'GET',
			`/workflows/${workflowId}`,
		);
		const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger to run it from`);
		// n8n 1.x reads the workflow from the body, 2.x from its database (and drops workflowData)
		const answer = await this.rest<{ executionId?: string }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{
				workflowData: workflow,
				triggerToStartFrom: { name: trigger.name },
			},
		);
		if (!answer.executionId) {
			throw new Error(`n8n did not start workflow ${workflowId}: ${JSON.stringify(answer)}`);
		}
		const run = await this.finishedExecution(answer.executionId, started + timeoutMs);
		return {
			run,
			stdout: this.logText().slice(logBefore),
			stderr: '',
			failed: runError(run) !== undefined,
			seconds: (Date.now() - started) / 1000,
		};
	}

	/** The execution once n8n has finished it (polled through the public API). */
	private async finishedExecution(executionId: string, deadline: number): Promise<N8nRun> {
		for (;;) {
			const execution = await this.api<N8nRun & { status?: string }>(
				'GET',
				`/executions/${executionId}?includeData=true`,
			).catch((error: Error) => {
				// not saved yet is the only answer to wait out; any other failure is said at once
				if (!/: HTTP 404:/.test(error.message)) throw error;
				return undefined;
			});
			const status = execution?.status;
			if (execution?.data && status && !['new', 'running', 'waiting'].includes(status)) {
				return execution;
			}
			if (Date.now() > deadline) {
				throw new Error(
					`execution ${executionId} not finished in time (status ${status ?? 'unknown'})\n${this.logTail()}`,
				);
			}
			await sleep(250);
		}
	}

	private async executeInCli(workflowId: string, timeoutMs: number): Promise<ExecuteResult> {
		const started = Date.now();
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			timeoutMs,
			allowFailure: true,
			// n8n execute exits right after printing the run: into a file, nothing of it is lost
			stdoutFile: join(this.folder, `execute-${uniqueSuffix()}.out`),
		});
		const runJson = parseRunJson(result.stdout);
		if (!runJson) {
			throw new Error(
				`n8n execute --id=${workflowId} printed no run JSON (exit ${result.code ?? result.signal})\n${formatOutput(result)}`,
			);
		}
		return {
			run: runJson,
			stdout: result.stdout,
			stderr: result.stderr,
			failed: runError(runJson) !== undefined,
			seconds: (Date.now() - started) / 1000,
		};
	}

	/** Executes a workflow and fails with n8n's whole output when the run did not succeed. */
	async executeOk(workflowId: string, opts: { timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const result = await this.execute(workflowId, opts);
		if (result.failed) {
			throw new Error(
				`workflow ${workflowId} failed: ${JSON.stringify(runError(result.run), null, 2)}\n${result.stdout}\n${result.stderr}`,
			);
		}
		return result;
	}

	/** Stops n8n and removes the temporary folder (kept when E2E_KEEP=1, for a post-mortem). */
	async dispose(): Promise<void> {
		if (this.attached) return;
		await this.stop();
		if (!this.ownsFolder) return;
		if (process.env.E2E_KEEP === '1') {
			log(`kept ${this.folder} (E2E_KEEP=1)`);
			return;
		}
		await rm(this.folder, { recursive: true, force: true, maxRetries: 3 });
	}
}
