/**
 * Memory benchmark of File → Upload in real n8n whose binaries live on disk
 * (N8N_DEFAULT_BINARY_DATA_MODE=filesystem), against the project's emulator.
 *
 * For each n8n line it runs, with `n8n execute`, a baseline workflow that only reads a 200 MiB
 * file from disk (n8n's Read/Write Files node) and the same workflow followed by the Agent
 * Platform node uploading that file, and samples the n8n process's peak RSS (VmHWM in
 * /proc/<pid>/status). The upload may add at most 64 MB to the baseline's peak (medians of the
 * runs). The node sends a file of this size through the signed-URL flow (a PUT of the raw bytes
 * to the emulator's storage host). It also times the upload (n8n's own execution time of the node)
 * against `curl -F` sending the same file to POST /files of the same emulator (its 32 MiB limit
 * raised for them), and checks that every upload arrived whole (bytes and sha256).
 *
 *   npx ts-node --transpile-only test/bench/upload-memory.ts [--runs 3] [--size-mb 200]
 *   E2E_N8N_LINES=2 … for one line only. Exit code 1 when the memory bound is exceeded.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, type PlatformEmulator, type RecordedMultipart } from '../../dev/emulator';
import { executeMeasured } from './n8nMemory';
import {
	N8nInstance,
	NODE24_BIN,
	REPO_ROOT,
	agentPlatformCredential,
	ensureN8n,
	log,
	selectedLines,
	type N8nLine,
} from '../../dev/n8n/harness';
import { CREDENTIAL, WORKFLOW, workflows } from './upload-memory.workflows';

const MB = 1024 * 1024;
/** The bound this benchmark enforces: peak RSS growth of the upload over the read-only baseline. */
const MAX_GROWTH_MB = 64;
const API_KEY = 'bench-upload-key';
const WORKSPACE_ID = '42';
const FILE_NAME = 'bench-200mb.mp4';

function argument(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
	if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
	return value;
}

/** Writes `bytes` of random data (random, so that nothing on the way can compress it). */
async function writeRandomFile(path: string, bytes: number): Promise<Buffer> {
	const hash = createHash('sha256');
	const handle = await open(path, 'w');
	try {
		for (let written = 0; written < bytes;) {
			const chunk = randomBytes(Math.min(8 * MB, bytes - written));
			await handle.write(chunk);
			hash.update(chunk);
			written += chunk.length;
		}
	} finally {
		await handle.close();
	}
	return hash.digest();
}

function curlUpload(emu: PlatformEmulator, path: string): Promise<number> {
	return new Promise((resolve, reject) => {
		execFile(
			'curl',
			[
				'-sS',
				'-o',
				'/dev/null',
				'-w',
				'%{http_code} %{time_total}',
				'-H',
				`Authorization: Bearer ${API_KEY}`,
				'-H',
				`x-workspace-id: ${WORKSPACE_ID}`,
				'-F',
				`file=@${path};type=video/mp4`,
				`${emu.url}/files`,
			],
			(error, stdout) => {
				if (error) return reject(error);
				const [status, seconds] = stdout.trim().split(' ');
				if (status !== '200') return reject(new Error(`curl upload answered HTTP ${status}`));
				resolve(Number(seconds));
			},
		);
	});
}

/**
 * The node's multipart body (the built dist/ code) sent by axios, the HTTP client n8n uses, from a
 * plain Node 24 process: the same encoding and streaming without n8n around it.
 */
function axiosAlone(emu: PlatformEmulator, path: string, size: number): Promise<number> {
	const script = `
		const axios = require(process.env.AXIOS);
		const { createReadStream } = require('node:fs');
		const { MultipartForm, StreamedFile } = require(process.env.MULTIPART);
		const form = new MultipartForm();
		const size = Number(process.env.SIZE);
		form.append('file', new StreamedFile({ name: 'alone.mp4', type: 'video/mp4', size,
			open: async () => createReadStream(process.env.FILE, { highWaterMark: 256 * 1024 }) }));
		const started = Date.now();
		axios.post(process.env.URL, form, { headers: { Authorization: 'Bearer ' + process.env.KEY,
			'x-workspace-id': process.env.WORKSPACE }, maxRedirects: 0, maxBodyLength: Infinity })
			.then((r) => { if (r.status !== 200) throw new Error('HTTP ' + r.status); console.log((Date.now() - started) / 1000); })
			.catch((e) => { console.error(e.message); process.exit(1); });`;
	return new Promise((resolve, reject) => {
		execFile(
			NODE24_BIN,
			['-e', script],
			{
				env: {
					AXIOS: require.resolve('axios'),
					MULTIPART: join(REPO_ROOT, 'dist', 'nodes', 'AgentPlatform', 'transport', 'multipart.js'),
					FILE: path,
					SIZE: String(size),
					URL: `${emu.url}/files`,
					KEY: API_KEY,
					WORKSPACE: WORKSPACE_ID,
				},
			},
			(error, stdout, stderr) =>
				error
					? reject(new Error(`axios alone: ${stderr || error.message}`))
					: resolve(Number(stdout.trim())),
		);
	});
}

function checkArrivedWhole(
	emu: PlatformEmulator,
	since: number,
	size: number,
	digest: string,
): void {
	const posts = emu.requests.slice(since).filter((r) => r.method === 'POST' && r.path === '/files');
	const received = (posts[0]?.body as RecordedMultipart | undefined)?.files[0];
	if (
		posts.length !== 1 ||
		posts[0].status !== 200 ||
		received?.bytes !== size ||
		received.sha256 !== digest
	) {
		throw new Error(
			`the upload did not arrive whole: ${JSON.stringify(posts.map((p) => ({ status: p.status, body: p.body })))}`,
		);
	}
}

/** The node sends a file above 32 MiB to the storage host (signed-URL flow): one whole PUT there. */
function checkStoredWhole(
	emu: PlatformEmulator,
	since: number,
	size: number,
	digest: string,
): void {
	const puts = emu.storageRequests.slice(since).filter((r) => r.method === 'PUT');
	if (
		puts.length !== 1 ||
		puts[0].status !== 200 ||
		puts[0].bytes !== size ||
		puts[0].sha256 !== digest
	) {
		throw new Error(
			`the upload did not arrive whole on the storage host: ${JSON.stringify(puts.map((p) => ({ status: p.status, bytes: p.bytes })))}`,
		);
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const range = (values: number[], digits = 0) =>
	values.length > 1
		? `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`
		: values[0].toFixed(digits);

interface LineResult {
	line: N8nLine;
	baselineMb: number[];
	uploadMb: number[];
	uploadSeconds: number[];
	curlSeconds: number[];
	axiosSeconds: number[];
	growthMb: number;
}

async function benchLine(
	line: N8nLine,
	emu: PlatformEmulator,
	folder: string,
	digest: string,
	size: number,
	runs: number,
): Promise<LineResult> {
	const n8n = await N8nInstance.withPackage(line, {
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_RESTRICT_FILE_ACCESS_TO: folder },
	});
	try {
		await n8n.importCredentials([
			agentPlatformCredential(
				{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
				CREDENTIAL,
			),
		]);
		await n8n.importWorkflows(workflows(join(folder, FILE_NAME)));

		const result: LineResult = {
			line,
			baselineMb: [],
			uploadMb: [],
			uploadSeconds: [],
			curlSeconds: [],
			axiosSeconds: [],
			growthMb: 0,
		};
		for (let i = 0; i < runs; i++) {
			// interleaved, so that a slow phase of the machine weighs on both alike
			const baseline = await executeMeasured(n8n, WORKFLOW.baseline);
			result.baselineMb.push(baseline.peakMb);

			const before = emu.storageRequests.length;
			const upload = await executeMeasured(n8n, WORKFLOW.upload);
			const task = upload.run.data.resultData.runData.Upload?.[0] as
				{ executionTime?: number } | undefined;
			checkStoredWhole(emu, before, size, digest);
			result.uploadMb.push(upload.peakMb);
			result.uploadSeconds.push((task?.executionTime ?? Number.NaN) / 1000);

			let since = emu.requests.length;
			result.curlSeconds.push(await curlUpload(emu, join(folder, FILE_NAME)));
			checkArrivedWhole(emu, since, size, digest);
			since = emu.requests.length;
			result.axiosSeconds.push(await axiosAlone(emu, join(folder, FILE_NAME), size));
			checkArrivedWhole(emu, since, size, digest);
			log(
				`n8n ${line.version} run ${i + 1}/${runs}: baseline ${baseline.peakMb.toFixed(0)} MB, upload ${upload.peakMb.toFixed(0)} MB, ` +
					`upload node ${result.uploadSeconds.at(-1)!.toFixed(2)} s, curl ${result.curlSeconds.at(-1)!.toFixed(2)} s, ` +
					`axios alone ${result.axiosSeconds.at(-1)!.toFixed(2)} s`,
			);
		}
		result.growthMb = median(result.uploadMb) - median(result.baselineMb);
		return result;
	} finally {
		await n8n.dispose();
	}
}

async function main(): Promise<void> {
	const runs = argument('runs', 3);
	const sizeMb = argument('size-mb', 200);
	const size = Math.round(sizeMb * MB);
	const lines = selectedLines();
	for (const line of lines) await ensureN8n(line);
	if (!existsSync(NODE24_BIN)) throw new Error(`Node 24 is missing at ${NODE24_BIN}`);

	const folder = await mkdtemp(join(tmpdir(), 'bench-upload-'));
	const emu = await startEmulator({
		maxDirectUploadBytes: 256 * MB,
		port: 0,
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		maxStoredFiles: 100_000,
		quiet: true,
	});
	const results: LineResult[] = [];
	try {
		log(`writing a ${sizeMb} MiB file of random bytes`);
		const digest = (await writeRandomFile(join(folder, FILE_NAME), size)).toString('hex');
		for (const line of lines) results.push(await benchLine(line, emu, folder, digest, size, runs));
	} finally {
		await emu.stop();
		await rm(folder, { recursive: true, force: true });
	}

	const rows = [
		[
			'n8n',
			'peak RSS: read only (MB)',
			'peak RSS: read + upload (MB)',
			'growth (median, MB)',
			'upload node (s)',
			'curl -F (s)',
			'axios alone (s)',
		],
		...results.map((r) => [
			r.line.version,
			range(r.baselineMb),
			range(r.uploadMb),
			`${r.growthMb >= 0 ? '+' : ''}${r.growthMb.toFixed(0)} (max ${MAX_GROWTH_MB})`,
			range(r.uploadSeconds, 2),
			range(r.curlSeconds, 2),
			range(r.axiosSeconds, 2),
		]),
	];
	const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
	const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
	console.log(
		`\nFile → Upload of a ${sizeMb} MiB file, binaries on disk (N8N_DEFAULT_BINARY_DATA_MODE=filesystem), ${runs} run(s) each:\n`,
	);
	console.log(line(rows[0]));
	console.log(line(widths.map((w) => '-'.repeat(w))));
	for (const row of rows.slice(1)) console.log(line(row));

	// npm run bench (test/bench/upload.ts) reads the medians from here
	if (process.env.BENCH_RESULT_FILE) {
		const medians = results.map((r) => ({
			line: r.line.version,
			growthMb: r.growthMb,
			maxGrowthMb: MAX_GROWTH_MB,
			uploadSeconds: median(r.uploadSeconds),
			curlSeconds: median(r.curlSeconds),
			axiosSeconds: median(r.axiosSeconds),
			sizeMb,
			runs,
		}));
		writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(medians), 'utf8');
	}

	const over = results.filter((r) => r.growthMb > MAX_GROWTH_MB);
	if (over.length) {
		console.error(
			`\n✗ the upload grew n8n's peak RSS by more than ${MAX_GROWTH_MB} MB on ${over.map((r) => r.line.version).join(', ')}`,
		);
		process.exitCode = 1;
	} else {
		console.log(`\n✓ the upload adds at most ${MAX_GROWTH_MB} MB to n8n's peak RSS on every line`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
