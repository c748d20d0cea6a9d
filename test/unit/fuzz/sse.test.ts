/**
 * Fuzz test of the Server-Sent-Events reader (transport/sse.ts), driven by a seeded PRNG (seed.ts):
 * random events (multi-line data, event names, ids, comments, retry and unknown fields,
 * multi-byte characters, empty data) with LF, CRLF (mixed) or CR line ends, encoded to UTF-8 and
 * cut at random byte boundaries (through multi-byte characters and between CR and LF), must come
 * out as exactly the events sent.
 */
import type { INode } from 'n8n-workflow';
import type { PlatformContext } from '../../../nodes/AgentPlatform/transport/types';
import { readServerSentEvents } from '../../../nodes/AgentPlatform/transport/sse';
import { RUNS, Random, SEED, prng, text } from './seed';

const node = { name: 'Agent Platform' } as INode;
const context = {
	getNode: () => node,
	getExecutionCancelSignal: () => undefined,
} as unknown as PlatformContext;

interface SentEvent {
	data: string;
	event?: string;
	id?: string;
}

/** A stream of blocks (events, comment-only and retry-only blocks), its lines and the events it carries. */
function sseCase(r: Random): { lines: string[]; events: SentEvent[]; endsWithBlank: boolean } {
	const lines: string[] = [];
	const events: SentEvent[] = [];
	const noise = () => {
		const kind = r.int(0, 3);
		if (kind === 0) return `:${r.chance(0.5) ? ' ' : ''}${text(r, 0, 3)}`; // comment
		if (kind === 1) return `retry: ${r.int(0, 99_999)}`;
		if (kind === 2) return `retry: soon`; // invalid retry: ignored
		return `x-unknown: ${text(r, 0, 2)}`; // unknown field: ignored
	};
	for (let block = r.int(1, 12); block > 0; block--) {
		if (r.chance(0.15)) {
			for (let n = r.int(1, 3); n > 0; n--) lines.push(noise());
			lines.push('');
			continue;
		}
		const event: SentEvent = { data: '' };
		const dataLines: string[] = [];
		const fields: string[] = [];
		if (r.chance(0.3)) {
			event.event = `e${r.int(0, 9)}${r.pick(['', 'é', '_x'])}`;
			fields.push(`event: ${event.event}`);
		}
		if (r.chance(0.3)) {
			event.id = `${r.int(0, 999)}`;
			fields.push(`id: ${event.id}`);
		}
		for (let n = r.int(1, 3); n > 0; n--) {
			const value = r.chance(0.1) ? '' : text(r, 1, 8);
			dataLines.push(value);
			// "data:" then one optional space, which the parser drops; a value starting with a space needs it
			fields.push(value.startsWith(' ') || r.chance(0.7) ? `data: ${value}` : `data:${value}`);
		}
		for (let n = r.int(0, 2); n > 0; n--) fields.splice(r.int(0, fields.length), 0, noise());
		event.data = dataLines.join('\n');
		lines.push(...fields, '');
		events.push(event);
	}
	// A last event without its blank line still counts (the reader ends the stream with one).
	const endsWithBlank = !(r.chance(0.3) && lines[lines.length - 1] === '' && events.length > 0);
	if (!endsWithBlank) lines.pop();
	return { lines, events, endsWithBlank };
}

/** Joins lines with LF, CRLF (mixed, line by line) or CR only. */
function joinLines(r: Random, lines: string[], style: 'lf' | 'crlf' | 'mixed' | 'cr'): string {
	const end = () =>
		style === 'lf'
			? '\n'
			: style === 'crlf'
				? '\r\n'
				: style === 'cr'
					? '\r'
					: r.pick(['\n', '\r\n']);
	return lines.map((line) => line + end()).join('');
}

/** Cuts bytes at random places: anywhere, often inside a multi-byte character or a CRLF. */
function cut(r: Random, bytes: Uint8Array): Uint8Array[] {
	if (r.chance(0.1)) return Array.from(bytes, (byte) => Uint8Array.of(byte)); // one byte at a time
	const cuts = new Set<number>();
	for (let n = r.int(0, Math.min(40, bytes.length)); n > 0; n--) cuts.add(r.int(0, bytes.length));
	const points = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
	const chunks: Uint8Array[] = [];
	for (let i = 1; i < points.length; i++) chunks.push(bytes.slice(points[i - 1], points[i])); // empty ones too
	return chunks;
}

async function* chunksOf(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
	for (const chunk of chunks) yield chunk;
}

async function readAll(chunks: Uint8Array[]): Promise<SentEvent[]> {
	const seen: SentEvent[] = [];
	for await (const event of readServerSentEvents(context, chunksOf(chunks), {
		idleTimeoutMs: 60_000,
	})) {
		seen.push({
			data: event.data,
			...(event.event ? { event: event.event } : {}),
			...(event.id !== undefined ? { id: event.id } : {}),
		});
	}
	return seen;
}

describe(`readServerSentEvents, fuzzed (seed ${SEED})`, () => {
	const random = prng(SEED);
	const cases = RUNS || 400;

	it(`${cases} random streams cut at random byte boundaries come out as the events sent`, async () => {
		const styles = ['lf', 'crlf', 'mixed', 'cr'] as const;
		const runs = Array.from({ length: cases }, (_, index) => {
			const { lines, events } = sseCase(random);
			const style = random.pick(styles);
			const bytes = new TextEncoder().encode(joinLines(random, lines, style));
			const chunks = cut(random, bytes);
			return { index, style, events, chunks, stream: new TextDecoder().decode(bytes) };
		});
		// All at once: the reader's watchdog sleeps in steps, so one after another would be slow.
		const results = await Promise.all(
			runs.map(async (run) => ({ run, seen: await readAll(run.chunks) })),
		);
		for (const { run, seen } of results) {
			const where = `case ${run.index} of seed ${SEED} (${run.style}, ${run.chunks.length} chunks): ${JSON.stringify(run.stream)}`;
			expect({ where, events: seen }).toEqual({ where, events: run.events });
		}
	});
});
