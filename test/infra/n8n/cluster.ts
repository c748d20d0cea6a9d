/**
 * Several n8n processes on one API key, as one test process can be them: each a pace of its own (a
 * Base URL of its own naming the same emulator: the node keeps a pace per API key and address,
 * and one per n8n process), each a worker that runs up to `concurrency` executions at once and
 * pulls the next one from a queue they share, as n8n's queue-mode workers pull jobs from Redis.
 * One execution is one run of the node (runNode: n8n's execution machinery, the real request
 * function, the emulator over loopback).
 */
import type { INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';
import { cleanBaseUrl } from '../../../nodes/AgentPlatform/transport/baseUrl';
import { paceKeyOf } from '../../../nodes/AgentPlatform/transport/credentials';
import { paceFor } from '../../../nodes/AgentPlatform/transport/pace';
import { credentialsFor } from './credentials';
import { runNode } from './runNode';

/**
 * Spellings of 127.0.0.1 that every HTTP client reads as that address (WHATWG URL's IPv4 parser:
 * short forms, one 32-bit number, hexadecimal, octal) and the node keeps apart as Base URLs.
 */
const LOOPBACK_SPELLINGS = [
	'127.0.0.1',
	'localhost',
	'127.1',
	'127.0.1',
	'2130706433',
	'0x7f000001',
	'0x7f.1',
	'0177.0.0.1',
];
export const MAX_PROCESSES = LOOPBACK_SPELLINGS.length;

export interface ClusterOptions {
	/** The emulator: its address as `http://127.0.0.1:PORT`, key and workspace. */
	server: { url: string; apiKey: string; workspaceId: string | number };
	processes: number;
	/** Executions one process runs at once (n8n's worker concurrency). */
	concurrency: number;
	executions: number;
	parameters: INodeParameters;
	/** The credential's Requests per Second (1: its default). */
	requestsPerSecond?: number;
	/** n8n's execution mode of each run (webhook: started by the webhook processor). */
	mode?: WorkflowExecuteMode;
}

export interface ProcessOutcome {
	executions: number;
	failed: number;
	/** 429s this process's pace was answered. */
	refused: number;
}

export interface ClusterOutcome {
	/** From the first execution's start to the last one's end. */
	ms: number;
	processes: ProcessOutcome[];
	failed: number;
	/** The longest an execution took, from when all were queued. */
	longestMs: number;
	errors: string[];
}

export async function runCluster(options: ClusterOptions): Promise<ClusterOutcome> {
	const { server, processes, concurrency, executions, parameters } = options;
	if (processes > MAX_PROCESSES) throw new Error(`at most ${MAX_PROCESSES} processes`);
	const requestsPerSecond = options.requestsPerSecond ?? 1;
	const port = new URL(server.url).port;
	const baseUrls = LOOPBACK_SPELLINGS.slice(0, processes).map((host) => `http://${host}:${port}`);
	const paces = baseUrls.map((url) =>
		paceFor(paceKeyOf(server.apiKey, cleanBaseUrl(url)), requestsPerSecond),
	);
	const refusedBefore = paces.map((pace) => pace.stats.rateLimited);
	const outcomes: ProcessOutcome[] = baseUrls.map(() => ({ executions: 0, failed: 0, refused: 0 }));
	const errors: string[] = [];
	let queued = executions;
	let longestMs = 0;
	const started = performance.now();
	const worker = async (index: number) => {
		const credentials = { ...credentialsFor(server, requestsPerSecond), baseUrl: baseUrls[index] };
		while (queued > 0) {
			queued--;
			outcomes[index].executions++;
			const run = await runNode({ parameters, credentials, mode: options.mode ?? 'webhook' });
			longestMs = Math.max(longestMs, performance.now() - started);
			if (run.error) {
				outcomes[index].failed++;
				errors.push(run.error.message);
			}
		}
	};
	await Promise.all(
		baseUrls.flatMap((_, index) =>
			Array.from({ length: concurrency }, async () => await worker(index)),
		),
	);
	paces.forEach((pace, i) => (outcomes[i].refused = pace.stats.rateLimited - refusedBefore[i]));
	return {
		ms: performance.now() - started,
		processes: outcomes,
		failed: outcomes.reduce((sum, p) => sum + p.failed, 0),
		longestMs,
		errors,
	};
}
