/**
 * Case 6's interactive-first rows (transport/pace/workClass.ts): chat messages (Agent → Execute,
 * Stream, run as a streaming execution: interactive) beside a Return All of a scheduled run (mode
 * `trigger`: bulk) on one credential, the node in-process against an emulator process of its own.
 *
 *   - chatbeside: one chat message sent while a 40-page Get Many pages at R = 1 (real time): the
 *     first streamed piece after sending, and the paging's time ÷ (its pages + the chat's
 *     requests) / R;
 *   - chatwaiting: the same beside a 40-page Return All whose caller waits (a run of the chat's own
 *     class, interactive: here a run from the editor, as a Webhook answering when the workflow has
 *     run is): the executions send in rotation, so the chat waits about one page, not the paging;
 *   - chatsminute: ten chat messages a minute for five minutes beside a 300-page Return All,
 *     time-scaled by SCALE (the platform takes SCALE a second, chats come SCALE times as often, the
 *     node's documented rate alike): every chat's first piece, the paging's share of the rate, 429s.
 */
import type { INodeParameters } from 'n8n-workflow';
import { PACING, resetPaces } from '../../nodes/AgentPlatform/transport/pace';
import { scaledPacing } from '../infra/scaledPacing';
import { byId, credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchRow, EmulatorProcess } from './common';
import { progress, seconds, startEmulatorProcess } from './common';
import { LATENCY_MS, PER_PAGE, percent, roundTripMs } from './rates-measure';

const SCALE = 4;
const CHAT_AGENT = '1';

interface Requests {
	requests: Array<{ status: number; path: string; method: string; at: number }>;
}

/** Agent → Execute (Stream) on the chat agent with its first model, tools and temperature. */
async function chatParameters(emu: EmulatorProcess): Promise<INodeParameters> {
	const agent = (await (
		await fetch(`${emu.url}/agents/${CHAT_AGENT}`, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': emu.workspaceId },
		})
	).json()) as { data?: { questions?: Array<{ name: string; options?: unknown[] }> } };
	const questions = agent.data?.questions ?? [];
	const first = (name: string) =>
		String(questions.find((q) => q.name === name)?.options?.[0] ?? '');
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(CHAT_AGENT),
		responseMode: 'stream',
		message: 'Tell me about otters',
		model: first('model'),
		tools: first('tools'),
		temperature: first('temperature'),
	};
}

/** One chat message, streamed to its caller: ms from sending to its first piece, and its error. */
async function chat(emu: EmulatorProcess, parameters: INodeParameters, rate: number) {
	const sentAt = performance.now();
	let firstPieceMs: number | undefined;
	const { error } = await runNode({
		parameters,
		credentials: credentialsFor(emu, rate),
		streaming: {
			onChunk: (chunk) => {
				if (chunk.type === 'item' && firstPieceMs === undefined)
					firstPieceMs = performance.now() - sentAt;
			},
		},
	});
	return { firstPieceMs: firstPieceMs ?? Infinity, failed: error !== undefined };
}

/** A run's paging over `pages` pages (a schedule's unless `mode` says otherwise): its time and outcome. */
async function scheduledPaging(
	emu: EmulatorProcess,
	pages: number,
	rate: number,
	mode: 'trigger' | 'manual' = 'trigger',
) {
	const started = performance.now();
	const { error, outputs } = await runNode({
		parameters: {
			resource: 'memory',
			operation: 'getAll',
			returnAll: false,
			limit: pages * PER_PAGE,
		},
		credentials: credentialsFor(emu, rate),
		mode,
	});
	return {
		ms: performance.now() - started,
		items: outputs[0]?.length ?? 0,
		failed: error !== undefined,
	};
}

async function limitAt(emu: EmulatorProcess, rate: number): Promise<void> {
	await emu.control('DELETE', '/faults');
	await emu.control('PUT', '/faults', {
		latencyMs: LATENCY_MS,
		rateLimitPerSecond: rate,
		rateLimitBurst: 1,
	});
	await emu.control('DELETE', '/requests');
	resetPaces();
}

export async function interactiveRows(want: (name: string) => boolean): Promise<BenchRow[]> {
	if (!want('chatbeside') && !want('chatwaiting') && !want('chatsminute')) return [];
	const rows: BenchRow[] = [];
	const emu = await startEmulatorProcess([
		'--seed-memories',
		String(300 * PER_PAGE),
		'--latency',
		String(LATENCY_MS),
		'--execution-seconds',
		'2',
	]);
	const saved = { ...PACING };
	try {
		const parameters = await chatParameters(emu);
		for (const [row, mode, whose] of [
			['chatbeside', 'trigger', 'a scheduled run'],
			['chatwaiting', 'manual', 'a run whose caller waits (interactive, as the chat)'],
		] as const) {
			if (!want(row)) continue;
			const rtt = await roundTripMs(emu);
			const pages = 40;
			await limitAt(emu, 1);
			const paging = scheduledPaging(emu, pages, 1, mode);
			// the paging is under way: its next pages wait in the pace's queue
			await new Promise((resolve) => setTimeout(resolve, 5_000));
			const message = await chat(emu, parameters, 1);
			const { ms, items, failed } = await paging;
			const { requests } = await emu.control<Requests>('GET', '/requests');
			const chatRequests = requests.filter((r) => r.path.startsWith('/agents')).length;
			const ideal = ((pages + chatRequests - 1) * 1000) / 1 + rtt;
			progress(
				`rates, a chat beside 40 pages of ${whose}: first piece ${seconds(message.firstPieceMs / 1000)}, paging ${seconds(ms / 1000)}`,
			);
			rows.push({
				case: '6 Rate limits',
				figure: `a chat message (Execute, Stream) sent while a ${pages}-page Get Many of ${whose} pages at R = 1: first piece after sending; the paging ÷ (pages + the chat's ${chatRequests} requests) / R`,
				measured: `first piece ${seconds(message.firstPieceMs / 1000)}; paging ${seconds(ms / 1000)}, ${items} items, ${requests.filter((r) => r.status === 429).length} × 429`,
				baseline: `${seconds(ideal / 1000)} (ideal paging)`,
				value: ms / ideal,
				target: 'first piece ≤ 3 s; paging ≤ 1.10×; 0 failed',
				met:
					message.firstPieceMs <= 3000 &&
					ms / ideal <= 1.1 &&
					!message.failed &&
					!failed &&
					items === pages * PER_PAGE,
			});
		}
		if (want('chatsminute')) {
			Object.assign(PACING, scaledPacing(saved, SCALE));
			const pages = 300;
			const minutes = 5;
			await limitAt(emu, SCALE);
			const started = performance.now();
			const paging = scheduledPaging(emu, pages, SCALE);
			const chats: Array<ReturnType<typeof chat>> = [];
			const everyMs = 60_000 / 10 / SCALE;
			for (let i = 0; i < (minutes * 60_000) / SCALE / everyMs; i++) {
				const due = started + i * everyMs;
				await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
				chats.push(chat(emu, parameters, SCALE));
			}
			const answers = await Promise.all(chats);
			const { ms, items, failed } = await paging;
			const { requests } = await emu.control<Requests>('GET', '/requests');
			const pagingShare =
				requests.filter((r) => r.path === '/memories').length / (ms / 1000) / SCALE;
			const refused = requests.filter((r) => r.status === 429).length;
			const slowest = Math.max(...answers.map((a) => a.firstPieceMs));
			const limitMs = 3000 / SCALE;
			progress(
				`rates, ${answers.length} chats beside 300 pages: slowest first piece ${seconds(slowest / 1000)}, paging share ${pagingShare.toFixed(2)}`,
			);
			rows.push({
				case: '6 Rate limits',
				figure: `10 chat messages a minute for ${minutes} minutes beside a ${pages}-page Return All (scaled ×${SCALE}): slowest first piece ÷ 3 s scaled; the paging's share of the rate`,
				measured: `${answers.length} chats, slowest first piece ${seconds(slowest / 1000)} (${seconds((slowest * SCALE) / 1000)} unscaled); paging ${seconds(ms / 1000)} at ${pagingShare.toFixed(2)} of the rate; ${refused} of ${requests.length} answers 429 (${percent(refused, requests.length).toFixed(1)} %)`,
				baseline: `${seconds(limitMs / 1000)} (3 s scaled)`,
				value: slowest / limitMs,
				target: '≤ 1 (every first piece ≤ 3 s); paging ≥ 1/3 of the rate; 0 failed; ≤ 3 % 429',
				met:
					slowest <= limitMs &&
					pagingShare >= 1 / 3 &&
					answers.every((a) => !a.failed) &&
					!failed &&
					items === pages * PER_PAGE &&
					percent(refused, requests.length) <= 3,
			});
		}
	} finally {
		Object.assign(PACING, saved);
		await emu.stop();
	}
	return rows;
}
