/**
 * Soak: a bounded run of mixed operations through a real n8n against the emulator with faults on,
 * measuring n8n's open sockets and memory at the start and at the end (and in between).
 *
 *   npm run soak                          # n8n 2.x, 400 workflow runs, 4 at a time, at most 15 minutes
 *   npm run soak -- --runs 100 --line 1   # fewer runs, n8n 1.x
 *
 * One workflow (test/soak/soak-workflow.json), started by its production webhook: Agent Get Many
 * (2 pages), Agent Get, Memory Create / Get Many / Delete, Execute (start only), Execute (stream),
 * Chat Completion, Resource Template, Memory Collection, File and Webhook Get Many; every node
 * with "Continue On Fail", so a fault becomes an error item and the run goes on. The emulator
 * answers with 503s, resets, malformed JSON, HTML pages and 429s at the rates below, and cuts
 * every Execute stream after two events (so each run also recovers its output by polling).
 *
 * Measured on n8n's main process (community node code runs there; task runners are separate):
 * - sockets: its file descriptors that are sockets, and its TCP connections to the emulator
 *   (ESTABLISHED or CLOSE_WAIT in /proc/net/tcp*: a leaked connection stays in one of those);
 * - memory: resident set size (VmRSS) and its peak (VmHWM).
 * "start" is after a warm-up of the first runs, "end" after the last run and a few seconds of
 * quiet. The script fails (exit 1) when sockets at the end exceed the start by more than 8 or when
 * RSS grew by more than 25 % over the second half of the runs.
 */
import { readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, type EmulatorFaults } from '../../dev/emulator';
import {
	N8nInstance,
	agentPlatformCredential,
	fixtureId,
	lineByName,
	log,
	setLogPrefix,
	sleep,
	waitFor,
	type WorkflowFixture,
} from '../../dev/n8n/harness';
import { fillPlaceholders } from '../e2e/fixtures';

interface Options {
	runs: number;
	concurrency: number;
	line: string;
	maxMinutes: number;
}

function parseArgs(argv: string[]): Options {
	const options: Options = {
		runs: Number(process.env.SOAK_RUNS ?? 400),
		concurrency: 4,
		line: process.env.SOAK_N8N_LINE ?? '2',
		maxMinutes: 15,
	};
	for (let i = 0; i < argv.length; i++) {
		const value = argv[i + 1];
		if (argv[i] === '--runs') options.runs = Number(value);
		else if (argv[i] === '--concurrency') options.concurrency = Number(value);
		else if (argv[i] === '--line') options.line = value;
		else if (argv[i] === '--max-minutes') options.maxMinutes = Math.min(15, Number(value));
		else continue;
		i++;
	}
	return options;
}

/** The platform's faults during the soak (rates per request). */
const FAULTS: Partial<EmulatorFaults> = {
	latencyMs: 5,
	rateLimitPerSecond: 25,
	retryAfterSeconds: 1,
	serverErrorRate: 0.03,
	serverErrorStatus: 503,
	resetConnectionRate: 0.01,
	malformedJsonRate: 0.01,
	htmlErrorRate: 0.01,
	cutStreamAfterEvents: 2,
};

interface Sample {
	run: number;
	seconds: number;
	rssMb: number;
	peakRssMb: number;
	fds: number;
	socketFds: number;
	/** n8n's TCP connections to the emulator, ESTABLISHED or CLOSE_WAIT. */
	emulatorConnections: number;
	closeWait: number;
}

function statusField(pid: number, field: string): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8')
		.split('\n')
		.find((l) => l.startsWith(`${field}:`));
	return line ? Number(line.split(/\s+/)[1]) / 1024 : Number.NaN; // kB → MB
}

/** Socket inodes of a process (its fds that are `socket:[inode]`). */
function socketInodes(pid: number): { fds: number; sockets: Set<string> } {
	const sockets = new Set<string>();
	let fds = 0;
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		fds++;
		try {
			const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
			const match = /^socket:\[(\d+)\]$/.exec(target);
			if (match) sockets.add(match[1]);
		} catch {
			// closed meanwhile
		}
	}
	return { fds, sockets };
}

/** The process's TCP connections whose remote port is `port`, by state (hex state codes of /proc/net/tcp). */
function connectionsTo(
	port: number,
	inodes: Set<string>,
): { established: number; closeWait: number } {
	let established = 0;
	let closeWait = 0;
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const row of text.trim().split('\n').slice(1)) {
			const cols = row.trim().split(/\s+/);
			const remotePort = parseInt(cols[2].split(':')[1], 16);
			if (remotePort !== port || !inodes.has(cols[9])) continue;
			if (cols[3] === '01') established++;
			else if (cols[3] === '08') closeWait++;
		}
	}
	return { established, closeWait };
}

function sample(pid: number, run: number, startedAt: number, emulatorPort: number): Sample {
	const { fds, sockets } = socketInodes(pid);
	const { established, closeWait } = connectionsTo(emulatorPort, sockets);
	return {
		run,
		seconds: Math.round((Date.now() - startedAt) / 1000),
		rssMb: Math.round(statusField(pid, 'VmRSS')),
		peakRssMb: Math.round(statusField(pid, 'VmHWM')),
		fds,
		socketFds: sockets.size,
		emulatorConnections: established + closeWait,
		closeWait,
	};
}

async function main(): Promise<void> {
	setLogPrefix('soak');
	const options = parseArgs(process.argv.slice(2));
	const line = lineByName(options.line);
	const deadline = Date.now() + options.maxMinutes * 60_000;
	log(
		`n8n ${line.version}: ${options.runs} workflow runs, ${options.concurrency} at a time, at most ${options.maxMinutes} minutes`,
	);

	const n8n = await N8nInstance.withPackage(line);
	const apiKey = 'soak-api-key-5c1e';
	const emu = await startEmulator({
		apiKey,
		workspaceId: '42',
		timeScale: 20,
		executionSeconds: 2,
		faults: FAULTS,
		quiet: true,
	});
	const emulatorPort = Number(new URL(emu.url).port);
	let exitCode = 0;
	try {
		const credential = agentPlatformCredential(
			{ url: emu.url, apiKey, workspaceId: '42' },
			{ id: fixtureId('credSoak'), name: 'Agent Platform (soak)' },
		);
		await n8n.importCredentials([credential]);
		const questions = emu.state.agents.get(1)!.questions;
		const first = (name: string) => String(questions.find((q) => q.name === name)!.options![0]);
		const workflowId = fixtureId('soakWorkflow');
		const workflow = fillPlaceholders(
			JSON.parse(readFileSync(join(__dirname, 'soak-workflow.json'), 'utf8')) as WorkflowFixture,
			{
				WORKFLOW_ID: workflowId,
				WEBHOOK_ID: '7c3a2e5f-1111-4d9c-a000-00000000500a',
				WEBHOOK_PATH: 'agent-platform-soak',
				CREDENTIAL_ID: credential.id,
				CREDENTIAL_NAME: credential.name,
				MODEL: first('model'),
				TOOLS: first('tools'),
				TEMPERATURE: first('temperature'),
			},
		);
		await n8n.importWorkflows([{ active: false, settings: {}, ...workflow } as WorkflowFixture]);
		await n8n.start();
		await n8n.setupOwnerAndApiKey();
		await n8n.activate(workflowId);
		const webhookUrl = `${n8n.baseUrl}/webhook/agent-platform-soak`;
		await waitFor(
			'the soak webhook to be registered',
			async () => (await fetch(webhookUrl, { method: 'POST' })).status !== 404,
			{
				timeoutMs: 60_000,
			},
		);
		const pid = n8n.pid!;

		const startedAt = Date.now();
		const samples: Sample[] = [];
		const statuses = new Map<number, number>();
		const unexpected: string[] = [];
		let done = 0;
		let next = 0;
		const warmUp = Math.min(40, Math.floor(options.runs / 10));
		const every = Math.max(10, Math.floor(options.runs / 20));
		const runOnce = async () => {
			const res = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ soak: true }),
				signal: AbortSignal.timeout(5 * 60_000),
			});
			const text = await res.text();
			statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
			if (res.status !== 200 && unexpected.length < 5)
				unexpected.push(`HTTP ${res.status}: ${text.slice(0, 500)}`);
			done++;
			if (done === warmUp || done % every === 0) {
				samples.push(sample(pid, done, startedAt, emulatorPort));
				const s = samples[samples.length - 1];
				log(
					`${done} runs, ${s.seconds} s: RSS ${s.rssMb} MB, ${s.socketFds} sockets, ${s.emulatorConnections} to the emulator`,
				);
			}
		};
		const worker = async () => {
			while (next < options.runs && Date.now() < deadline) {
				next++;
				await runOnce();
			}
		};
		await Promise.all(Array.from({ length: options.concurrency }, worker));
		const runSeconds = (Date.now() - startedAt) / 1000;
		await sleep(5000); // quiet: keep-alive connections may close, timers settle
		const end = sample(pid, done, startedAt, emulatorPort);

		const start = samples.find((s) => s.run === warmUp) ?? samples[0] ?? end;
		const half = samples.filter((s) => s.run >= done / 2);
		const secondHalfGrowth = half.length >= 2 ? (end.rssMb - half[0].rssMb) / half[0].rssMb : 0;
		const byStatus = new Map<number, number>();
		for (const request of emu.requests)
			byStatus.set(request.status, (byStatus.get(request.status) ?? 0) + 1);
		const result = {
			n8n: line.version,
			runs: done,
			concurrency: options.concurrency,
			seconds: Math.round(runSeconds),
			webhookStatuses: Object.fromEntries(statuses),
			platformRequests: emu.requests.length,
			platformAnswers: Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0])),
			agentRuns: emu.runCount,
			faults: FAULTS,
			start,
			end,
			peakRssMb: Math.max(...samples.map((s) => s.peakRssMb), end.peakRssMb),
			maxSocketFds: Math.max(...samples.map((s) => s.socketFds), end.socketFds),
			maxEmulatorConnections: Math.max(
				...samples.map((s) => s.emulatorConnections),
				end.emulatorConnections,
			),
			secondHalfRssGrowthPercent: Math.round(secondHalfGrowth * 1000) / 10,
			samples,
		};
		const file = join(tmpdir(), `agent-platform-soak-${line.line}-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(result, null, 2));

		const rows = [
			['', 'start (after ' + start.run + ' runs)', 'end (' + done + ' runs + 5 s)', 'max seen'],
			['RSS of n8n main (MB)', start.rssMb, end.rssMb, result.peakRssMb + ' (VmHWM)'],
			['socket fds of n8n main', start.socketFds, end.socketFds, result.maxSocketFds],
			[
				'TCP connections to the platform',
				start.emulatorConnections,
				end.emulatorConnections,
				result.maxEmulatorConnections,
			],
			[
				'of them CLOSE_WAIT',
				start.closeWait,
				end.closeWait,
				Math.max(...samples.map((s) => s.closeWait), end.closeWait),
			],
			['all fds of n8n main', start.fds, end.fds, Math.max(...samples.map((s) => s.fds), end.fds)],
		];
		process.stdout.write(
			`\nSoak, n8n ${line.version}: ${done} workflow runs in ${result.seconds} s, ${options.concurrency} at a time\n`,
		);
		for (const row of rows)
			process.stdout.write(
				`  ${String(row[0]).padEnd(34)}${String(row[1]).padEnd(24)}${String(row[2]).padEnd(24)}${row[3]}\n`,
			);
		process.stdout.write(
			`  webhook answers ${JSON.stringify(result.webhookStatuses)}; platform requests ${result.platformRequests}, answered ${JSON.stringify(result.platformAnswers)} (0 = reset); agent runs ${result.agentRuns}\n`,
		);
		process.stdout.write(
			`  RSS growth over the second half: ${result.secondHalfRssGrowthPercent} %; every sample in ${file}\n`,
		);

		const problems: string[] = [];
		if (done < options.runs)
			problems.push(`only ${done} of ${options.runs} runs within ${options.maxMinutes} minutes`);
		if ((statuses.get(200) ?? 0) !== done)
			problems.push(`not every run answered 200: ${JSON.stringify(result.webhookStatuses)}`);
		if (end.socketFds > start.socketFds + 8)
			problems.push(`sockets grew from ${start.socketFds} to ${end.socketFds}`);
		if (end.emulatorConnections > start.emulatorConnections + 8) {
			problems.push(
				`connections to the platform grew from ${start.emulatorConnections} to ${end.emulatorConnections}`,
			);
		}
		// three agent runs per workflow run at most (Execute start, Execute stream, Chat Completion), +1 for the readiness probe
		if (emu.runCount > 3 * (done + 1))
			problems.push(`${emu.runCount} agent runs for ${done} workflow runs: something ran twice`);
		if (secondHalfGrowth > 0.25)
			problems.push(`RSS grew by ${result.secondHalfRssGrowthPercent} % over the second half`);
		if (unexpected.length) {
			// What n8n stored for the failed runs: the node and the error that stopped them.
			const failedRuns = await n8n.getExecutions(workflowId, { status: 'error', limit: 5 });
			const why = failedRuns.map((execution) => {
				const resultData = (
					execution.data as {
						resultData?: {
							error?: { message?: string; stack?: string; node?: { name?: string } };
							lastNodeExecuted?: string;
						};
					}
				)?.resultData;
				return `execution ${execution.id}: ${resultData?.lastNodeExecuted ?? '?'}: ${resultData?.error?.message ?? '?'}\n${(resultData?.error?.stack ?? '').split('\n').slice(0, 8).join('\n')}`;
			});
			process.stdout.write(
				`  unexpected answers:\n    ${unexpected.join('\n    ')}\n  failed executions:\n    ${why.join('\n    ')}\n`,
			);
		}
		if (problems.length) {
			exitCode = 1;
			process.stdout.write(`  FAILED: ${problems.join('; ')}\n`);
		} else {
			process.stdout.write('  OK: sockets and memory stay bounded\n');
		}
	} catch (error) {
		exitCode = 1;
		process.stderr.write(`${(error as Error).stack ?? error}\n${n8n.logTail(40)}\n`);
	} finally {
		await n8n.dispose();
		await emu.stop();
	}
	process.exit(exitCode);
}

void main();
