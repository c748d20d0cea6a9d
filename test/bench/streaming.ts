/**
 * Case 3, Streaming.
 *
 * First-event latency: Agent → Execute in Stream mode, in-process through n8n-core's real
 * execution machinery with a streaming hook (as a Webhook in streaming mode or a Chat Trigger sets
 * up), against the emulator in the same process, which records when it wrote each event
 * (performance clock). The delay runs from the emulator writing the first event to the node's
 * first `sendChunk('item', …)`. Baseline in the same run, interleaved: a raw SSE client (node:http,
 * splitting on blank lines) starting the same kind of run, from the same first event to its first
 * parsed `data:` line.
 *
 * Reader throughput: transport/sse.ts `readServerSentEvents` over 10 MB of events like the
 * platform's, in 64 KiB chunks (what a socket read gives); baseline: eventsource-parser (the library
 * the reader uses) fed the same chunks directly, without the reader's async iteration and watchdog.
 */
import { createParser } from 'eventsource-parser';
import type { INode } from 'n8n-workflow';

import type { PlatformContext } from '../../nodes/AgentPlatform/transport/types';
import { readServerSentEvents } from '../../nodes/AgentPlatform/transport/sse';
import type { PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { byId, credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow } from './common';
import { firstDataLineAt, interleavedFirstEvents, median, ms, progress } from './common';
import { CHAT_AGENT } from '../../dev/emulator';

const MB = 1024 * 1024;

const now = () => performance.timeOrigin + performance.now();

/** The raw client: POST …/execute with stream true; resolves when the first data line is complete. */
function rawFirstEvent(emu: PlatformEmulator): Promise<number> {
	const answers = {
		...emu.firstOptions(CHAT_AGENT),
		messages: [{ role: 'user', content: 'bench' }],
	};
	return firstDataLineAt(emu, `/agents/${CHAT_AGENT}/execute`, {
		answers,
		...answers,
		stream: true,
	});
}

async function nodeFirstChunk(emu: PlatformEmulator): Promise<number> {
	let first: number | undefined;
	const { error } = await runNode({
		parameters: {
			resource: 'agent',
			operation: 'execute',
			agentId: byId(CHAT_AGENT),
			responseMode: 'stream',
			message: 'bench',
			...emu.firstOptions(CHAT_AGENT),
			options: {},
		},
		credentials: credentialsFor(emu),
		streaming: {
			onChunk(chunk) {
				if (chunk.type === 'item' && first === undefined) first = now();
			},
		},
	});
	if (error || first === undefined) throw new Error(`the node streamed nothing: ${error?.message}`);
	return first;
}

function firstEventSentAt(emu: PlatformEmulator): number {
	const streams = emu.requests.filter(
		(r) => r.method === 'POST' && r.path.endsWith('/execute') && r.eventsSentAt?.length,
	);
	return streams.at(-1)!.eventsSentAt![0];
}

/** 10 MB of events shaped like the platform's, cut into 64 KiB chunks. */
function eventChunks(bytes: number): { chunks: Uint8Array[]; events: number } {
	const output =
		'The quick brown fox jumps over the lazy dog, and the agent keeps writing its answer. ';
	let text = '';
	let events = 0;
	while (text.length < bytes) {
		const data = JSON.stringify({
			id: 1001 + events,
			status: 'running',
			output: `${output}${events}`,
			error: null,
			credits: null,
			root_id: 1001,
			created_at: '2026-11-22T07:19:56.123456Z',
			updated_at: '2026-11-22T07:19:57.654321Z',
			template_id: 1,
		});
		text += `data: ${data}\n\n`;
		events++;
	}
	const all = new TextEncoder().encode(text);
	const chunks: Uint8Array[] = [];
	for (let i = 0; i < all.length; i += 64 * 1024) chunks.push(all.subarray(i, i + 64 * 1024));
	return { chunks, events };
}

async function* asStream(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
	for (const chunk of chunks) yield chunk;
}

const benchNode: INode = {
	id: 'bench',
	name: 'Bench',
	type: 'bench',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

async function readerMbPerSecond(
	chunks: Uint8Array[],
	bytes: number,
	events: number,
): Promise<number> {
	const ctx = { getNode: () => benchNode } as unknown as PlatformContext;
	const started = performance.now();
	let count = 0;
	for await (const event of readServerSentEvents(ctx, asStream(chunks), {
		idleTimeoutMs: 30_000,
	})) {
		if (event.data) count++;
	}
	const took = performance.now() - started;
	if (count !== events) throw new Error(`the reader yielded ${count} of ${events} events`);
	return bytes / MB / (took / 1000);
}

function parserMbPerSecond(chunks: Uint8Array[], bytes: number, events: number): number {
	let count = 0;
	const parser = createParser({ onEvent: (event) => void (event.data && count++) });
	const decoder = new TextDecoder();
	const started = performance.now();
	for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
	const took = performance.now() - started;
	if (count !== events) throw new Error(`the parser yielded ${count} of ${events} events`);
	return bytes / MB / (took / 1000);
}

export async function benchStreaming(options: BenchOptions): Promise<BenchRow[]> {
	const emu = await startEmulator({ port: 0, quiet: true });
	let node: number[];
	let raw: number[];
	try {
		// a short run whose first event comes 50 ms after it starts
		emu.configureAgent(CHAT_AGENT, { executionSeconds: 0.25, streamEvents: 4 });
		({ node, raw } = await interleavedFirstEvents(
			Math.max(options.runs, 5) * 2,
			() => nodeFirstChunk(emu),
			() => rawFirstEvent(emu),
			() => firstEventSentAt(emu),
		));
		progress(
			`streaming: first event → node sendChunk ${node.map((v) => v.toFixed(1)).join(', ')} ms; → raw client ${raw.map((v) => v.toFixed(1)).join(', ')} ms`,
		);
	} finally {
		await emu.stop();
	}

	const bytes = 10 * MB;
	const { chunks, events } = eventChunks(bytes);
	const reader: number[] = [];
	const parser: number[] = [];
	await readerMbPerSecond(chunks, bytes, events); // untimed
	for (let i = 0; i < options.runs; i++) {
		reader.push(await readerMbPerSecond(chunks, bytes, events));
		parser.push(parserMbPerSecond(chunks, bytes, events));
	}
	progress(
		`streaming: reader ${reader.map((v) => v.toFixed(0)).join(', ')} MB/s; eventsource-parser alone ${parser.map((v) => v.toFixed(0)).join(', ')} MB/s`,
	);

	const extra = median(node) - median(raw);
	return [
		{
			case: '3 Streaming',
			figure:
				"first event written by the emulator → first sendChunk, minus the raw SSE client's delay",
			measured: ms(median(node)),
			baseline: ms(median(raw)),
			value: extra,
			target: '≤ 5 ms more',
			met: extra <= 5,
			note: `difference of medians over ${node.length} runs each, interleaved (ms)`,
		},
		{
			case: '3 Streaming',
			figure: `SSE reader over 10 MB of events (${events} events, 64 KiB chunks), MB/s`,
			measured: `${median(reader).toFixed(0)} MB/s`,
			baseline: `${median(parser).toFixed(0)} MB/s (parser alone)`,
			value: median(reader),
			target: '≥ 50 MB/s',
			met: median(reader) >= 50,
			note: `the reader runs at ${(median(reader) / median(parser)).toFixed(2)}× eventsource-parser fed directly`,
		},
	];
}
