/**
 * End-to-end harness: runs the packed package inside a real n8n (1.x and 2.x), each
 * instance isolated in its own temporary user folder, with its own free ports.
 *
 * Recipes and pitfalls (test/e2e/README.md has the details). In short: n8n runs on
 * Node 24 from the install cache, `n8n execute --id` prints log lines and then the
 * run's JSON (from the first line that is exactly "{"), and a running n8n is driven
 * through its public API with an API key created after the owner setup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
} from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export * from './examples';
export * from './lines';
import {
	agentPlatformCredential,
	EXAMPLE_CREDENTIALS,
	exampleNames,
	loadExample,
	openAiEmulatorCredential,
	type PlatformEndpoint,
} from './examples';
import {
	CACHE_DIR,
	isInstalled,
	majorOf,
	n8nEntry,
	NODE_HOME,
	NODE24_BIN,
	type N8nLine,
} from './lines';
import { PACKAGE_NAME } from '../constants';
import { freePort } from '../loopback';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export { DEV_PLATFORM, DEV_SIGN_IN, NODE_TYPES, PACKAGE_NAME } from '../constants';

// ---------------------------------------------------------------------------
// n8n lines and the install cache
// ---------------------------------------------------------------------------

let logPrefix = 'e2e';
/** Progress lines on stderr, prefixed "[e2e]" (or what setLogPrefix says, e.g. for npm start). */
export function log(message: string): void {
	process.stderr.write(`[${logPrefix}] ${message}\n`);
}
export function setLogPrefix(prefix: string): void {
	logPrefix = prefix;
}

/**
 * Makes sure Node 24 and this n8n line are installed in the cache (first use: 4 to 6
 * minutes, progress on stderr; later: instant).
 */
export async function ensureN8n(line: N8nLine): Promise<void> {
	if (isInstalled(line)) return;
	log(
		`n8n ${line.version} is not in ${CACHE_DIR}: installing it from its lock (once; 4-6 minutes)`,
	);
	const env: NodeJS.ProcessEnv = { ...process.env, N8N_E2E_CACHE: CACHE_DIR };
	if (line.line === '1.x') env.N8N1_VERSION = line.version;
	else env.N8N2_VERSION = line.version;
	await run('bash', [join(__dirname, 'install-n8n.sh'), majorOf(line)], {
		env,
		timeoutMs: 20 * 60_000,
		stdio: 'stderr',
		what: `install-n8n.sh ${majorOf(line)}`,
	});
}

// ---------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------

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
	/** Label used in error messages. */
	what?: string;
}

const MAX_CAPTURE = 20 * 1024 * 1024;

/** Runs a command with a timeout; rejects with its stdout and stderr when it fails or times out. */
export function run(command: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
	const timeoutMs = opts.timeoutMs ?? 120_000;
	const what = opts.what ?? [command, ...args].join(' ');
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, {
			cwd: opts.cwd ?? REPO_ROOT,
			env: opts.env ?? process.env,
			stdio: opts.stdio === 'stderr' ? ['ignore', 2, 2] : ['ignore', 'pipe', 'pipe'],
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
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(new Error(`${what}: could not start: ${err.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			liveChildren.delete(child);
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

function formatOutput(r: { stdout: string; stderr: string }): string {
	return `--- stdout ---\n${r.stdout.trimEnd()}\n--- stderr ---\n${r.stderr.trimEnd()}\n--------------`;
}

// A test process that exits must not leave n8n processes behind.
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of liveChildren) killTree(child, 'SIGKILL');
});

function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
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

function processGroupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------------------
// The package
// ---------------------------------------------------------------------------

let packed: Promise<string> | undefined;

/** What goes into the tarball: the build's inputs and the files npm pack always adds. */
const PACKAGE_INPUTS = [
	'package.json',
	'package-lock.json',
	'gulpfile.js',
	'tsconfig.json',
	'README.md',
	'LICENSE',
	'LICENSE.md',
	'nodes',
	'credentials',
];

/** A hash of the package's sources: the same sources give the same tarball. */
export function packageSourceHash(): string {
	const hash = createHash('sha256');
	const add = (rel: string) => {
		const abs = join(REPO_ROOT, rel);
		if (!existsSync(abs)) return;
		if (statSync(abs).isDirectory()) {
			for (const entry of readdirSync(abs).sort()) add(join(rel, entry));
		} else {
			hash.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
		}
	};
	PACKAGE_INPUTS.forEach(add);
	return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the package (`npm run build`) and packs it, once per set of sources: the tarball
 * is kept in the temp folder under a hash of the sources, so later test files and runs
 * reuse it while nothing changed. Builds are serialised by a lock (two builds at once
 * would clean each other's dist/). E2E_TARBALL=/path/to.tgz skips all this.
 */
export function packPackage(): Promise<string> {
	if (process.env.E2E_TARBALL) return Promise.resolve(resolve(process.env.E2E_TARBALL));
	packed ??= (async () => {
		const dest = join(tmpdir(), `${PACKAGE_NAME}-pack-${packageSourceHash()}`);
		const record = join(dest, 'tarball-path.txt');
		const cached = () => {
			const path = existsSync(record) ? readFileSync(record, 'utf8').trim() : '';
			return path && existsSync(path) ? path : undefined;
		};
		const hit = cached();
		if (hit) return hit;
		return await withBuildLock(async () => {
			const again = cached(); // built by another process while we waited
			if (again) return again;
			const started = Date.now();
			log('building the package (npm run build)');
			await run('npm', ['run', 'build'], { timeoutMs: 5 * 60_000, what: 'npm run build' });
			await rm(dest, { recursive: true, force: true });
			await mkdir(dest, { recursive: true });
			const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest], {
				timeoutMs: 2 * 60_000,
				what: 'npm pack',
			});
			const info = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
			const tarball = join(dest, info[0].filename);
			await writeFile(record, tarball, 'utf8');
			log(`packed ${tarball} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
			return tarball;
		});
	})();
	packed.catch(() => (packed = undefined));
	return packed;
}

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
	const lock = join(tmpdir(), `${PACKAGE_NAME}-build.lock`);
	const waitStarted = Date.now();
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const held = statSync(lock, { throwIfNoEntry: false });
			if (!held) continue; // just released
			if (Date.now() - held.mtimeMs > 10 * 60_000) {
				rmSync(lock, { recursive: true, force: true }); // left by a killed process
				continue;
			}
			if (Date.now() - waitStarted > 10 * 60_000)
				throw new Error(`waited 10 minutes for the build lock ${lock}`);
			await sleep(500);
		}
	}
	try {
		return await fn();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

// ---------------------------------------------------------------------------
// Run results
// ---------------------------------------------------------------------------

/** The subset of n8n's IRun that the tests read. */
export interface N8nRun {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, N8nTaskData[]>;
			lastNodeExecuted?: string;
			error?: N8nError;
		};
	};
	[key: string]: unknown;
}
export interface N8nTaskData {
	data?: {
		main?: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, unknown> }> | null>;
	};
	error?: N8nError;
	executionStatus?: string;
	[key: string]: unknown;
}
export interface N8nError {
	message: string;
	description?: string | null;
	httpCode?: string;
	node?: { name: string; type: string };
	name?: string;
	[key: string]: unknown;
}

export interface ExecuteResult {
	/** The run JSON that `n8n execute` printed. */
	run: N8nRun;
	stdout: string;
	stderr: string;
	/** Whether the run has an error (then `n8n execute` also exits with 1). */
	failed: boolean;
	/** Seconds the `n8n execute` process took, start-up included. */
	seconds: number;
}

/**
 * Extracts the run JSON from `n8n execute` output: from the first line that is exactly
 * "{" to the first later line that is exactly "}" (JSON.stringify(run, null, 2) indents
 * everything else). Returns undefined when there is none.
 */
export function parseRunJson(stdout: string): N8nRun | undefined {
	const lines = stdout.split(/\r?\n/);
	const start = lines.indexOf('{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start + 1);
	if (end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as N8nRun;
	} catch {
		return undefined;
	}
}

/** Output items (json) of a node's last run, first output. */
export function nodeItems(
	runResult: N8nRun,
	nodeName: string,
	outputIndex = 0,
): Array<Record<string, unknown>> {
	const runs = runResult.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) {
		const ran = Object.keys(runResult.data.resultData.runData).join(', ');
		throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran || 'none'})`);
	}
	const output = runs[runs.length - 1].data?.main?.[outputIndex] ?? [];
	return output.map((item) => item.json);
}

/** Output items (json) of the last node that ran. */
export function lastNodeItems(runResult: N8nRun): Array<Record<string, unknown>> {
	const last = runResult.data.resultData.lastNodeExecuted;
	if (!last) throw new Error('the run has no lastNodeExecuted');
	return nodeItems(runResult, last);
}

/** The error of a failed run (the workflow's, else the first node error found), or undefined. */
export function runError(runResult: N8nRun): N8nError | undefined {
	const { error, runData } = runResult.data.resultData;
	if (error) return error;
	for (const runs of Object.values(runData)) {
		for (const task of runs) if (task.error) return task.error;
	}
	return undefined;
}

// ---------------------------------------------------------------------------
// One n8n
// ---------------------------------------------------------------------------

export interface N8nInstanceOptions {
	/** Port of the editor/API (default: a free port). */
	port?: number;
	/** Parent of the temporary folder (default: the OS temp folder). */
	baseDir?: string;
	/** Use this folder instead of a new temporary one (kept by dispose()). */
	folder?: string;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
}

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: OwnerAccount = {
	email: 'owner@example.com',
	password: 'E2e-Owner-Passw0rd',
	firstName: 'Test',
	lastName: 'Owner',
};

/** Fixed so that credentials stay readable across processes of one instance. */
const ENCRYPTION_KEY = 'agent-platform-e2e-encryption-key';
const BROWSER_ID = 'agent-platform-e2e-browser';

/** Environment variables of the parent that must not leak into n8n. */
function inheritedEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// jest sets NODE_ENV=test and JEST_WORKER_ID; with them n8n's CLI prints nothing at all.
		if (
			/^(N8N_|DB_|npm_|JEST_|NODE_ENV$|NODE_OPTIONS$|WEBHOOK_URL$|EXECUTIONS_|GENERIC_TIMEZONE$)/.test(
				key,
			)
		)
			continue;
		env[key] = value;
	}
	return env;
}

/** One isolated n8n: its own user folder, database, ports and log. */
export class N8nInstance {
	readonly line: N8nLine;
	/** The temporary folder holding everything of this instance. */
	readonly folder: string;
	/** N8N_USER_FOLDER; n8n keeps its data in `<userFolder>/.n8n`. */
	readonly userFolder: string;
	readonly port: number;
	readonly brokerPort: number;
	readonly baseUrl: string;
	/** Log of `n8n start` (stdout and stderr). */
	readonly logFile: string;
	apiKey: string | undefined;
	private readonly ownsFolder: boolean;
	private readonly extraEnv: Record<string, string>;
	private server: ChildProcess | undefined;
	private serverExit: Promise<void> | undefined;
	private cookie: string | undefined;

	private constructor(
		line: N8nLine,
		folder: string,
		ownsFolder: boolean,
		port: number,
		brokerPort: number,
		env: Record<string, string>,
	) {
		this.line = line;
		this.folder = folder;
		this.ownsFolder = ownsFolder;
		this.userFolder = join(folder, 'user');
		this.port = port;
		this.brokerPort = brokerPort;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.logFile = join(folder, 'n8n.log');
		this.extraEnv = env;
		mkdirSync(join(this.userFolder, '.n8n'), { recursive: true });
		mkdirSync(join(folder, 'tmp'), { recursive: true });
	}

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
		return new N8nInstance(
			line,
			folder,
			opts.folder === undefined,
			port,
			brokerPort,
			opts.env ?? {},
		);
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

	/** The environment of every n8n process of this instance: isolated, quiet and offline. */
	env(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
		const base: Record<string, string> = {
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			DB_TYPE: 'sqlite',
			DB_SQLITE_POOL_SIZE: '2',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_METRICS: 'false',
			N8N_AI_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			EXTERNAL_FRONTEND_HOOKS_URLS: '',
			N8N_LOG_LEVEL: 'info',
			N8N_HOST: '127.0.0.1',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			TMPDIR: join(this.folder, 'tmp'),
			PATH: `${join(NODE_HOME, 'bin')}:${process.env.PATH ?? ''}`,
			npm_config_nodedir: NODE_HOME,
		};
		if (this.line.line === '1.x') {
			base.N8N_RUNNERS_ENABLED = 'true';
			base.WEBHOOK_URL = `${this.baseUrl}/`;
		} else {
			base.N8N_WEBHOOK_URL = `${this.baseUrl}/`;
			base.N8N_DISABLED_MODULES = 'mcp-registry';
		}
		return { ...inheritedEnv(), ...base, ...this.extraEnv, ...overrides };
	}

	/**
	 * Runs one n8n CLI command. While `n8n start` runs, a CLI process gets its own task
	 * runner broker port (two brokers on one port clash).
	 */
	async cli(
		args: string[],
		opts: { timeoutMs?: number; allowFailure?: boolean } = {},
	): Promise<RunResult> {
		const overrides: Record<string, string> = {};
		if (this.server) overrides.N8N_RUNNERS_BROKER_PORT = String(await freePort());
		return await run(NODE24_BIN, [n8nEntry(this.line), ...args], {
			cwd: this.folder,
			env: this.env(overrides),
			timeoutMs: opts.timeoutMs ?? 120_000,
			allowFailure: opts.allowFailure,
			what: `n8n ${this.line.version} ${args.join(' ')}`,
		});
	}

	/**
	 * Installs the packed package the way n8n's community package installer does: unpack
	 * into `.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies, install
	 * the runtime ones, and list the package in `.n8n/nodes/package.json`.
	 */
	async installPackage(tarball: string): Promise<void> {
		const nodesDir = join(this.userFolder, '.n8n', 'nodes');
		const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
		await rm(packageDir, { recursive: true, force: true });
		await mkdir(packageDir, { recursive: true });
		await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
			what: 'unpack the package',
		});
		const pkgPath = join(packageDir, 'package.json');
		const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(
			await readFile(pkgPath, 'utf8'),
		);
		void devDependencies;
		void peerDependencies;
		void optionalDependencies;
		await writeFile(pkgPath, JSON.stringify(pkg, null, 2), 'utf8');
		await run(
			'npm',
			[
				'install',
				'--omit=dev',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{
				cwd: packageDir,
				env: this.env(),
				timeoutMs: 5 * 60_000,
				what: `npm install in ${packageDir}`,
			},
		);
		const listPath = join(nodesDir, 'package.json');
		const list = existsSync(listPath)
			? JSON.parse(await readFile(listPath, 'utf8'))
			: { name: 'installed-nodes', private: true, dependencies: {} };
		list.dependencies = { ...(list.dependencies ?? {}), [PACKAGE_NAME]: pkg.version };
		await writeFile(listPath, JSON.stringify(list, null, 2), 'utf8');
	}

	/** `n8n import:credentials` of an array of `{ id, name, type, data }` (plain data; n8n encrypts it). */
	async importCredentials(credentials: unknown[]): Promise<void> {
		const file = join(this.folder, `credentials-${Date.now()}.json`);
		await writeFile(file, JSON.stringify(credentials, null, 2), 'utf8');
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	/** Imports all workflows in one `n8n import:workflow --separate` call (each call costs seconds). */
	/**
	 * The example workflows of examples/ and the two credentials they use, pointed at `platform`;
	 * the OpenAI one at the chat-completions endpoint of agent `openAiAgentId`.
	 */
	async importExamples(platform: PlatformEndpoint, openAiAgentId: number): Promise<void> {
		await this.importCredentials([
			agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
			openAiEmulatorCredential(platform, openAiAgentId),
		]);
		await this.importWorkflows(exampleNames().map(loadExample));
	}

	async importWorkflows(workflows: Array<{ id: string; name: string }>): Promise<void> {
		const dir = join(this.folder, `workflows-${Date.now()}`);
		await mkdir(dir, { recursive: true });
		for (const workflow of workflows) {
			await writeFile(join(dir, `${workflow.id}.json`), JSON.stringify(workflow, null, 2), 'utf8');
		}
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`; returns the run JSON it printed. Fails (with the
	 * whole output) when there is no run JSON; a failed run is returned with `failed: true`.
	 */
	async execute(workflowId: string, opts: { timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const started = Date.now();
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			timeoutMs: opts.timeoutMs ?? 180_000,
			allowFailure: true,
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

	// ----- the server -----

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
		if (this.server) throw new Error('n8n is already running');
		const timeoutMs = opts.timeoutMs ?? 120_000;
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
				throw new Error(
					`n8n start exited early (${child.exitCode ?? child.signalCode})\n${this.logTail()}`,
				);
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
		const text = readFileSync(this.logFile, 'utf8').trimEnd().split('\n');
		return `--- ${this.logFile} (last ${Math.min(lines, text.length)} lines) ---\n${text.slice(-lines).join('\n')}\n---`;
	}

	/** The whole `n8n start` log. */
	logText(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
	}

	// ----- REST (the editor's API) and the public API -----

	/** A call to the editor's REST API (`/rest/...`) with the login cookie, if any. */
	async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const headers: Record<string, string> = { 'browser-id': BROWSER_ID };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.cookie) headers.cookie = this.cookie;
		const res = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(30_000),
		});
		const setCookie = res.headers.get('set-cookie');
		const auth = setCookie?.match(/n8n-auth=[^;]*/)?.[0];
		if (auth) this.cookie = auth;
		const text = await res.text();
		if (!res.ok)
			throw new Error(`${method} /rest${path}: HTTP ${res.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? JSON.parse(text) : {};
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	}

	/** A call to the public API (`/api/v1/...`) with the API key from setupOwnerAndApiKey(). */
	async api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('no API key: call setupOwnerAndApiKey() first');
		const headers: Record<string, string> = {
			'X-N8N-API-KEY': this.apiKey,
			accept: 'application/json',
		};
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(`${method} /api/v1${path}: HTTP ${res.status}: ${text.slice(0, 2000)}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	/**
	 * On a running n8n: sets up the owner, logs in and creates an API key with every scope
	 * the instance offers. Returns the key (also kept for api()).
	 */
	async setupOwnerAndApiKey(owner: OwnerAccount = DEFAULT_OWNER): Promise<string> {
		await this.rest('POST', '/owner/setup', owner);
		await this.login(owner);
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: `e2e ${Date.now()}`,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	async login(owner: Pick<OwnerAccount, 'email' | 'password'> = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	}

	async activate(workflowId: string): Promise<void> {
		await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.api('POST', `/workflows/${workflowId}/deactivate`);
	}

	/** Executions of a workflow, newest first, with their data (`includeData`) by default. */
	async getExecutions(
		workflowId: string,
		opts: { includeData?: boolean; status?: string; limit?: number } = {},
	): Promise<Array<Record<string, unknown>>> {
		const query = new URLSearchParams({
			workflowId,
			includeData: String(opts.includeData ?? true),
			limit: String(opts.limit ?? 100),
		});
		if (opts.status) query.set('status', opts.status);
		const page = await this.api<{ data: Array<Record<string, unknown>> }>(
			'GET',
			`/executions?${query}`,
		);
		return page.data;
	}

	/** Stops n8n and removes the temporary folder (kept when E2E_KEEP=1, for a post-mortem). */
	async dispose(): Promise<void> {
		await this.stop();
		if (!this.ownsFolder) return;
		if (process.env.E2E_KEEP === '1') {
			log(`kept ${this.folder} (E2E_KEEP=1)`);
			return;
		}
		await rm(this.folder, { recursive: true, force: true, maxRetries: 3 });
	}
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
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
			lastError = err;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
	);
}
