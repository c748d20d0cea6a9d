/**
 * Case 1, Return All: Memory → Get Many with Return All over 5,000 memories (100 pages of 50),
 * the node running in-process through n8n-core's real execution machinery and request helpers
 * (test/infra/n8n/), the emulator in a process of its own answering after 20 ms.
 *
 * Baselines, measured in the same run, interleaved with the node's runs:
 * - a raw HTTP client (node:http, keep-alive) that fetches the same 100 pages all at once, and
 *   one that fetches them one after another;
 * - "n8n's floor": a minimal node that fetches page 1 and then all 99 other pages at once with
 *   n8n's own httpRequestWithAuthentication and the same credential, and does nothing else. It
 *   shows how much of the node's time is n8n's per-request cost rather than the node's.
 * The node's time is n8n's own executionTime of the node.
 *
 * Rate limits are case 6 (rates.ts).
 */
import http from 'node:http';

import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PAGING } from '../../nodes/AgentPlatform/transport/paginate';
import { credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow, EmulatorProcess } from './common';
import { median, ms, progress, startEmulatorProcess } from './common';

const MEMORIES = 5000;
const PER_PAGE = 50;
const PAGES = MEMORIES / PER_PAGE;
const LATENCY_MS = 20;
if (process.env.BENCH_PAGING_CONCURRENCY)
	PAGING.concurrency = Number(process.env.BENCH_PAGING_CONCURRENCY);

function rawClient(emu: EmulatorProcess) {
	const agent = new http.Agent({ keepAlive: true });
	const page = (n: number) =>
		new Promise<number>((resolve, reject) => {
			http
				.get(
					`${emu.url}/memories?page=${n}&per_page=${PER_PAGE}`,
					{
						agent,
						headers: {
							Authorization: `Bearer ${emu.apiKey}`,
							'x-workspace-id': emu.workspaceId,
							Accept: 'application/json',
						},
					},
					(res) => {
						let body = '';
						res.setEncoding('utf8');
						res.on('data', (chunk: string) => (body += chunk));
						res.on('end', () => {
							const parsed = JSON.parse(body) as { memories: unknown[] };
							if (res.statusCode !== 200) reject(new Error(`raw client: HTTP ${res.statusCode}`));
							else resolve(parsed.memories.length);
						});
					},
				)
				.on('error', reject);
		});
	const pages = Array.from({ length: PAGES }, (_, i) => i + 1);
	return {
		async concurrent(): Promise<number> {
			const started = performance.now();
			const counts = await Promise.all(pages.map(page));
			if (counts.reduce((a, b) => a + b, 0) !== MEMORIES)
				throw new Error('raw client: wrong count');
			return performance.now() - started;
		},
		async sequential(): Promise<number> {
			const started = performance.now();
			let total = 0;
			for (const n of pages) total += await page(n);
			if (total !== MEMORIES) throw new Error('raw client: wrong count');
			return performance.now() - started;
		},
		close: () => agent.destroy(),
	};
}

/** n8n's floor: page 1, then every other page at once, through n8n's request helper; nothing else. */
function floorNode(baseUrl: string): INodeType {
	return {
		description: {
			displayName: 'Floor',
			name: 'agentPlatform',
			group: ['transform'],
			version: 1,
			description: 'n8n request helper only',
			defaults: { name: 'Floor' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'agentPlatformApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const get = async (page: number) =>
				(await this.helpers.httpRequestWithAuthentication.call(this, 'agentPlatformApi', {
					method: 'GET',
					url: `${baseUrl}/memories`,
					qs: { page, per_page: PER_PAGE },
					json: true,
				})) as { memories: INodeExecutionData['json'][]; meta: { last_page: number } };
			const first = await get(1);
			const rest = await Promise.all(
				Array.from({ length: first.meta.last_page - 1 }, (_, i) => get(i + 2)),
			);
			const all = [first, ...rest].flatMap((body) => body.memories);
			return [this.helpers.returnJsonArray(all)];
		},
	};
}

async function nodeRun(
	emu: EmulatorProcess,
	nodeType?: INodeType,
): Promise<{ ms: number; items: number; error?: string }> {
	const { outputs, error, run } = await runNode({
		parameters: { resource: 'memory', operation: 'getAll', returnAll: true },
		// no limit here (rates.ts measures the pace): a rate that never holds a request back
		credentials: credentialsFor(emu, 100_000),
		nodeType,
	});
	const task = run.data.resultData.runData['Agent Platform']?.[0] as
		{ executionTime?: number } | undefined;
	return {
		ms: task?.executionTime ?? Number.NaN,
		items: outputs[0]?.length ?? 0,
		error: error?.message,
	};
}

export async function benchPaging(options: BenchOptions): Promise<BenchRow[]> {
	const emu = await startEmulatorProcess([
		'--seed-memories',
		String(MEMORIES),
		'--latency',
		String(LATENCY_MS),
	]);
	const raw = rawClient(emu);
	const rows: BenchRow[] = [];
	try {
		const times = {
			node: [] as number[],
			floor: [] as number[],
			concurrent: [] as number[],
			sequential: [] as number[],
		};
		const floor = floorNode(emu.url);
		// one untimed round: module loading and JIT
		await raw.concurrent();
		await nodeRun(emu);
		await nodeRun(emu, floor);
		for (let i = 0; i < options.runs; i++) {
			times.concurrent.push(await raw.concurrent());
			const node = await nodeRun(emu);
			if (node.error || node.items !== MEMORIES)
				throw new Error(`Return All returned ${node.items} items: ${node.error}`);
			times.node.push(node.ms);
			times.floor.push((await nodeRun(emu, floor)).ms);
			if (i < Math.min(options.runs, 3)) times.sequential.push(await raw.sequential());
			progress(
				`paging run ${i + 1}/${options.runs}: node ${ms(times.node.at(-1)!)}, raw concurrent ${ms(times.concurrent.at(-1)!)}, ` +
					`n8n floor ${ms(times.floor.at(-1)!)}${times.sequential.length > i ? `, raw sequential ${ms(times.sequential.at(-1)!)}` : ''}`,
			);
		}
		const node = median(times.node);
		const concurrent = median(times.concurrent);
		const sequential = median(times.sequential);
		const floorMs = median(times.floor);
		const label = `Return All, ${MEMORIES} memories (${PAGES} pages), ${LATENCY_MS} ms latency`;
		rows.push({
			case: '1 Return All',
			figure: `${label} vs n8n's floor (its request helper, page 1 then the rest at once)`,
			measured: ms(node),
			baseline: ms(floorMs),
			value: node / floorMs,
			target: '≤ 1.2×',
			met: node / floorMs <= 1.2,
			note: `raw client, all pages at once: ${ms(concurrent)}; the node is ${(node / concurrent).toFixed(2)}× that (PAGING.concurrency ${PAGING.concurrency})`,
		});
		rows.push({
			case: '1 Return All',
			figure: `${label}: raw client one page after another ÷ node`,
			measured: ms(node),
			baseline: ms(sequential),
			value: sequential / node,
			target: '≥ 3×',
			met: sequential / node >= 3,
		});
	} finally {
		raw.close();
		await emu.stop();
	}
	return rows;
}
