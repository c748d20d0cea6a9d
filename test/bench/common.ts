/**
 * Shared pieces of the benchmarks (`npm run bench`): command-line options, medians, the result
 * rows every case returns, the table they are printed in, and the emulator as a process of its
 * own (a platform does not share the client's CPU).
 */
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const REPO = join(__dirname, '..', '..');

/** One figure of the table: a measurement, the baseline measured in the same run, and the target. */
export interface BenchRow {
	case: string;
	figure: string;
	/** What the node did, in words with units (medians). */
	measured: string;
	/** The baseline in the same run, in words with units. */
	baseline: string;
	/** measured ÷ baseline (or the figure itself when it is absolute). */
	value: number;
	/** e.g. "≤ 1.15×", "≥ 0.9 R". */
	target: string;
	met: boolean;
	/** Anything the reader must know to read the figure. */
	note?: string;
	/** A figure shown for information, with no target of its own. */
	info?: boolean;
}

export interface BenchOptions {
	/** Repetitions of each measurement (medians are reported). */
	runs: number;
	/** Cases to run (all when empty). */
	only: string[];
	/** Shorter variants where a case offers one. */
	quick: boolean;
	/** Time scale of the long-run case. */
	timeScale: number;
}

export function parseOptions(argv: string[]): BenchOptions {
	const value = (name: string) => {
		const index = argv.indexOf(`--${name}`);
		return index >= 0 ? argv[index + 1] : undefined;
	};
	const number = (name: string, fallback: number) => {
		const raw = value(name);
		const parsed = raw === undefined ? fallback : Number(raw);
		if (!Number.isFinite(parsed) || parsed <= 0)
			throw new Error(`--${name} needs a positive number`);
		return parsed;
	};
	return {
		runs: Math.round(number('runs', 5)),
		only: (value('only') ?? '')
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean),
		quick: argv.includes('--quick'),
		timeScale: number('time-scale', 20),
	};
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
export const seconds = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} s`;

export function progress(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

/** The rows as a Markdown table (what the README shows). */
export function table(rows: BenchRow[]): string {
	const header = [
		'case',
		'figure',
		'node',
		'baseline (same run)',
		'ratio / value',
		'target',
		'met',
	];
	const body = rows.map((r) => [
		r.case,
		r.figure,
		r.measured,
		r.baseline,
		Number.isFinite(r.value)
			? Math.abs(r.value) >= 100
				? r.value.toFixed(0)
				: r.value.toFixed(2)
			: '–',
		r.target,
		r.info ? '–' : r.met ? 'yes' : '**no**',
	]);
	const all = [header, ...body];
	const widths = header.map((_, c) => Math.max(...all.map((row) => row[c].length)));
	const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
	return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export interface EmulatorProcess {
	url: string;
	origin: string;
	apiKey: string;
	workspaceId: string;
	/** The emulator's control API: faults, request record. */
	control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	stop(): Promise<void>;
}

/** The emulator CLI in its own process, on a free loopback port. */
export async function startEmulatorProcess(args: string[] = []): Promise<EmulatorProcess> {
	const apiKey = 'bench-api-key';
	const workspaceId = '42';
	const child: ChildProcess = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			join(REPO, 'dev', 'emulator', 'cli.ts'),
			'--port',
			'0',
			'--quiet',
			'--api-key',
			apiKey,
			'--workspace-id',
			workspaceId,
			...args,
		],
		{ cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let out = '';
	await new Promise<void>((resolve, reject) => {
		child.once('exit', (code) =>
			reject(new Error(`the emulator exited (${code}) before it listened: ${out}`)),
		);
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (/Workspace ID/.test(out)) resolve();
		});
	});
	child.removeAllListeners('exit');
	const url = /Base URL: (\S+)/.exec(out)![1];
	const origin = new URL(url).origin;
	return {
		url,
		origin,
		apiKey,
		workspaceId,
		async control<T>(method: string, path: string, body?: unknown): Promise<T> {
			const res = await fetch(`${origin}/_emulator${path}`, {
				method,
				headers: body === undefined ? undefined : { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			if (!res.ok) throw new Error(`${method} /_emulator${path}: HTTP ${res.status}`);
			return (await res.json()) as T;
		},
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/**
 * A raw client of a streamed endpoint (node:http, splitting on blank lines): POSTs the JSON body
 * and resolves the time (performance clock, ms since the epoch) its first `data:` line was complete.
 */
export function firstDataLineAt(
	emu: { url: string; apiKey: string; workspaceId: string },
	path: string,
	body: unknown,
): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			`${emu.url}${path}`,
			{
				method: 'POST',
				headers: {
					Authorization: `Bearer ${emu.apiKey}`,
					'x-workspace-id': emu.workspaceId,
					'content-type': 'application/json',
					accept: 'text/event-stream',
				},
			},
			(res) => {
				let text = '';
				let first: number | undefined;
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => {
					text += chunk;
					if (first === undefined && /(^|\n)data: [^\n]*\n\n/.test(text))
						first = performance.timeOrigin + performance.now();
				});
				res.on('end', () =>
					first === undefined ? reject(new Error('raw SSE client: no event')) : resolve(first),
				);
			},
		);
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

/**
 * First-event delays measured interleaved, a node's and a raw client's: each from the emulator
 * writing its stream's first event (`firstEventSentAt`, read after each run) to the time the run
 * resolves; one untimed run of each first (module loading and JIT), then `rounds` of each.
 */
export async function interleavedFirstEvents(
	rounds: number,
	node: () => Promise<number>,
	raw: () => Promise<number>,
	firstEventSentAt: () => number,
): Promise<{ node: number[]; raw: number[] }> {
	const delays = { node: [] as number[], raw: [] as number[] };
	await node();
	await raw();
	for (let i = 0; i < rounds; i++) {
		const rawAt = await raw();
		delays.raw.push(rawAt - firstEventSentAt());
		const nodeAt = await node();
		delays.node.push(nodeAt - firstEventSentAt());
	}
	return delays;
}
