/**
 * Memory benchmark of "Download Generated Files" in real n8n whose binaries live on disk
 * (N8N_DEFAULT_BINARY_DATA_MODE=filesystem), against the project's emulator and a file host on a
 * second port (as a storage host would be).
 *
 * For each n8n line it runs, with `n8n execute`, a baseline workflow (a run whose generated file
 * is 1 MiB, downloaded) and the same with a 200 MiB file, and samples the n8n process's peak RSS.
 * The baseline carries every fixed cost of a download (the run, n8n's HTTP client, the binary
 * store), so the difference is what the file's size costs: at most 64 MB (medians of the runs),
 * the same bound as the upload benchmark. Each download must arrive whole (its size in n8n's
 * binary store). Measured 2026-11-22 against a baseline without any download instead, a fixed
 * ~65 MB appeared for 50 MiB and 200 MiB alike (67 and 76 MB): the download code path's own
 * cost, not the file's.
 *
 *   npx ts-node --transpile-only test/bench/download-memory.ts [--runs 3] [--size-mb 200]
 *   E2E_N8N_LINES=2 … for one line only. Exit code 1 when the memory bound is exceeded.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { FileHost } from '../infra/fileHost';
import {
	N8nInstance,
	NODE24_BIN,
	agentPlatformCredential,
	ensureN8n,
	fixtureId,
	log,
	selectedLines,
	type N8nLine,
} from '../../dev/n8n/harness';
import { median } from './common';
import { executeMeasured } from './n8nMemory';
import { IMAGE_AGENT, VIDEO_AGENT } from '../../dev/emulator';

const MB = 1024 * 1024;
const MAX_GROWTH_MB = 64;
const API_KEY = 'bench-download-key';
const WORKSPACE_ID = '42';
const SMALL_BYTES = 1 * 1024 * 1024;
const CREDENTIAL = { id: fixtureId('credBenchDl'), name: 'Agent Platform (bench)' };
const WORKFLOW = { baseline: 'benchSmallDl0001', download: 'benchDownload001' };

function argument(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
	if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
	return value;
}

function workflow(id: string, agentId: number, answers: Record<string, string>) {
	return {
		id,
		name: agentId === IMAGE_AGENT ? 'Bench: download a large file' : 'Bench: download a small file',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'd0000000-0000-4000-8000-000000000001',
				name: 'Manual Trigger',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'd0000000-0000-4000-8000-000000000002',
				name: 'Run',
				type: 'n8n-nodes-agent-platform.agentPlatform',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'agent',
					operation: 'execute',
					agentId: { __rl: true, mode: 'id', value: String(agentId) },
					answers: { mappingMode: 'defineBelow', value: answers },
					options: { downloadGeneratedFiles: true },
				},
				credentials: { agentPlatformApi: CREDENTIAL },
			},
		],
		connections: { 'Manual Trigger': { main: [[{ node: 'Run', type: 'main', index: 0 }]] } },
	};
}

/** The first option of an agent's select question. */
function firstOption(emu: PlatformEmulator, agentId: number, name: string): string {
	return String(emu.state.agents.get(agentId)!.questions.find((q) => q.name === name)!.options![0]);
}

interface LineResult {
	line: N8nLine;
	baselineMb: number[];
	downloadMb: number[];
	growthMb: number;
}

async function benchLine(
	line: N8nLine,
	emu: PlatformEmulator,
	bytes: number,
	runs: number,
): Promise<LineResult> {
	const n8n = await N8nInstance.withPackage(line, {
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' },
	});
	try {
		await n8n.importCredentials([
			agentPlatformCredential(
				{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
				CREDENTIAL,
			),
		]);
		await n8n.importWorkflows([
			workflow(WORKFLOW.baseline, VIDEO_AGENT, {
				script: 'A short clip',
				resolution: firstOption(emu, VIDEO_AGENT, 'resolution'),
			}),
			workflow(WORKFLOW.download, IMAGE_AGENT, {
				prompt: 'A long video',
				size: firstOption(emu, IMAGE_AGENT, 'size'),
			}),
		]);
		const result: LineResult = { line, baselineMb: [], downloadMb: [], growthMb: 0 };
		for (let i = 0; i < runs; i++) {
			// interleaved, so that a slow phase of the machine weighs on both alike
			const baseline = await executeMeasured(n8n, WORKFLOW.baseline);
			result.baselineMb.push(baseline.peakMb);
			const download = await executeMeasured(n8n, WORKFLOW.download);
			const item = download.run.data.resultData.runData.Run?.[0]?.data?.main?.[0]?.[0];
			const stored = item?.binary?.data as { bytes?: number; fileSize?: string } | undefined;
			if (!stored || (stored.bytes !== undefined && stored.bytes !== bytes)) {
				throw new Error(`the download did not arrive whole: ${JSON.stringify(stored)}`);
			}
			result.downloadMb.push(download.peakMb);
			log(
				`n8n ${line.version} run ${i + 1}/${runs}: 1 MiB ${baseline.peakMb.toFixed(0)} MB, download ${download.peakMb.toFixed(0)} MB (${stored.fileSize ?? stored.bytes})`,
			);
		}
		result.growthMb = median(result.downloadMb) - median(result.baselineMb);
		return result;
	} finally {
		await n8n.dispose();
	}
}

async function main(): Promise<void> {
	const runs = argument('runs', 3);
	const bytes = Math.round(argument('size-mb', 200) * MB);
	const lines = selectedLines();
	for (const line of lines) await ensureN8n(line);
	if (!existsSync(NODE24_BIN)) throw new Error(`Node 24 is missing at ${NODE24_BIN}`);
	const host = new FileHost();
	await host.start();
	host.files.set('long-video.mp4', { body: randomBytes(bytes), contentType: 'video/mp4' });
	host.files.set('short-video.mp4', { body: randomBytes(SMALL_BYTES), contentType: 'video/mp4' });
	const emu = await startEmulator({
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		executionSeconds: 0.2,
		quiet: true,
	});
	emu.configureAgent(IMAGE_AGENT, { generatedFiles: [`${host.url}/long-video.mp4`] });
	emu.configureAgent(VIDEO_AGENT, { generatedFiles: [`${host.url}/short-video.mp4`] });
	let failed = false;
	try {
		for (const line of lines) {
			const result = await benchLine(line, emu, bytes, runs);
			const ok = result.growthMb <= MAX_GROWTH_MB;
			failed ||= !ok;
			console.log(
				`n8n ${line.version}: peak RSS with a 1 MiB download ${median(result.baselineMb).toFixed(0)} MB, with a ${(bytes / MB).toFixed(0)} MiB download ` +
					`${median(result.downloadMb).toFixed(0)} MB: growth ${result.growthMb.toFixed(0)} MB (bound ${MAX_GROWTH_MB} MB) ${ok ? 'ok' : 'EXCEEDED'}`,
			);
		}
	} finally {
		await emu.stop();
		await host.stop();
	}
	if (failed) throw new Error('the memory bound was exceeded');
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
