/**
 * Fuzz tests of the Server-Sent-Events reader (transport/sse.ts), the trigger's secret check
 * (helpers/trigger/delivery.ts) and the paging helper (transport/paginate.ts), driven by a seeded PRNG: the seed is printed, and
 * `FUZZ_SEED=<seed> npx jest --selectProjects unit --runTestsByPath test/unit/fuzz.test.ts`
 * replays a failure (`FUZZ_RUNS=<n>` runs more cases).
 *
 * SSE: random events (multi-line data, event names, ids, comments, retry and unknown fields,
 * multi-byte characters, empty data) with LF, CRLF (mixed) or CR line ends, encoded to UTF-8 and
 * cut at random byte boundaries (through multi-byte characters and between CR and LF), must come
 * out as exactly the events sent.
 * Paging: a loopback server answers each list operation with random lists in its envelope
 * style, with odd paging fields (last_page missing, null, text, zero, too high, too low; a smaller
 * page than asked for; noise fields; a null or missing list past the end); the node, run through
 * n8n's real request path (test/infra/n8n.ts), must return exactly the items it should, never
 * ask for a page twice or more per_page than the endpoint allows, and stop within a few pages of
 * the real end.
 */
import crypto from 'node:crypto';

import type { INode, INodeParameters } from 'n8n-workflow';

import { PAGE_LIMITS } from '../../nodes/AgentPlatform/helpers/records/lists';
import {
	newWebhookSecret,
	secretMatches,
} from '../../nodes/AgentPlatform/helpers/trigger/delivery';
import { PAGING } from '../../nodes/AgentPlatform/transport/paginate';
import type { PlatformContext } from '../../nodes/AgentPlatform/transport/request';
import { readServerSentEvents } from '../../nodes/AgentPlatform/transport/sse';
import { startLoopbackServer, type LoopbackServer } from '../../dev/loopback';
import { runNode } from '../infra/n8n';

jest.setTimeout(120_000);

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 0);
console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED})`);

/** mulberry32: small, fast, good enough to pick cases; the same seed gives the same cases. */
function prng(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)];
	const chance = (p: number) => next() < p;
	return { next, int, pick, chance };
}
type Random = ReturnType<typeof prng>;

// ---------------------------------------------------------------------------------------------
// Server-Sent Events
// ---------------------------------------------------------------------------------------------

const node = { name: 'Agent Platform' } as INode;
const context = {
	getNode: () => node,
	getExecutionCancelSignal: () => undefined,
} as unknown as PlatformContext;

/** Text pieces for values: ASCII, 2-, 3- and 4-byte UTF-8, JSON punctuation, colons, spaces, tabs. */
const PIECES = [
	'a',
	'Z',
	'7',
	' ',
	':',
	': ',
	'{"t":',
	'"',
	'}',
	'é',
	'ß',
	'€',
	'中文',
	'👋',
	'🧪',
	'\t',
	'data:',
	'ok',
	'[DONE]',
];

interface SentEvent {
	data: string;
	event?: string;
	id?: string;
}

function text(r: Random, min: number, max: number): string {
	let out = '';
	for (let i = r.int(min, max); i > 0; i--) out += r.pick(PIECES);
	return out;
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

// ---------------------------------------------------------------------------------------------
// The trigger's secret
// ---------------------------------------------------------------------------------------------

describe(`secretMatches, fuzzed (seed ${SEED})`, () => {
	it('matches exactly the expected secret, and always compares two 32-byte digests in constant time', () => {
		const random = prng(SEED ^ 0x5ec7);
		const compare = jest.spyOn(crypto, 'timingSafeEqual');
		try {
			for (let i = 0; i < (RUNS || 500); i++) {
				const expected = newWebhookSecret();
				const received = random.pick([
					() => expected,
					() => expected.slice(0, random.int(0, expected.length - 1)), // a prefix
					() => `${expected}${text(random, 1, 3)}`, // longer
					() => expected.slice(0, -1) + (expected.endsWith('0') ? '1' : '0'), // last character changed
					() => text(random, 0, 20),
					() => expected.toUpperCase(),
				])();
				compare.mockClear();
				const where = `case ${i} of seed ${SEED}: ${JSON.stringify(received)}`;
				expect({ where, match: secretMatches(received, expected) }).toEqual({
					where,
					match: received === expected,
				});
				// whatever was sent, one comparison of two 32-byte digests: no early exit on length or prefix
				expect(compare).toHaveBeenCalledTimes(1);
				const [a, b] = compare.mock.calls[0] as [Buffer, Buffer];
				expect([a.length, b.length]).toEqual([32, 32]);
			}
		} finally {
			compare.mockRestore();
		}
	});
});

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

type Style = 'laravel' | 'meta' | 'memories' | 'collections' | 'files';
type Quirk =
	| 'exact'
	| 'text'
	| 'missing'
	| 'null'
	| 'garbage'
	| 'zero'
	| 'fraction'
	| 'overstated'
	| 'understated'
	| 'smallerPages';

interface ListOperation {
	name: string;
	style: Style;
	path: string;
	maxPerPage: number;
	parameters: INodeParameters;
}

const OPERATIONS: ListOperation[] = [
	{
		name: 'Agent → Get Many',
		style: 'laravel',
		path: '/agents',
		maxPerPage: PAGE_LIMITS.agents,
		parameters: { resource: 'agent', operation: 'getAll' },
	},
	{
		name: 'Webhook → Get Many',
		style: 'laravel',
		path: '/webhooks',
		maxPerPage: PAGE_LIMITS.webhooks,
		parameters: { resource: 'webhook', operation: 'getAll', scope: 'all' },
	},
	{
		name: 'Resource Template → Get Many',
		style: 'meta',
		path: '/resources',
		maxPerPage: PAGE_LIMITS.resources,
		parameters: { resource: 'resourceTemplate', operation: 'getAll' },
	},
	{
		name: 'Memory → Get Many',
		style: 'memories',
		path: '/memories',
		maxPerPage: PAGE_LIMITS.memories,
		parameters: { resource: 'memory', operation: 'getAll' },
	},
	{
		name: 'Memory Collection → Get Many',
		style: 'collections',
		path: '/memory-collections',
		maxPerPage: PAGE_LIMITS.collections,
		parameters: { resource: 'memoryCollection', operation: 'getAll' },
	},
	{
		name: 'File → Get Many',
		style: 'files',
		path: '/files',
		maxPerPage: PAGE_LIMITS.files,
		parameters: { resource: 'file', operation: 'getAll' },
	},
];

interface PagingCase {
	operation: ListOperation;
	count: number;
	returnAll: boolean;
	limit: number;
	quirk: Quirk;
	/** Pages past the end answer with the list null, or without it. */
	pastEnd: 'empty' | 'null' | 'missing';
	/** With smallerPages: the server's own page size, below what was asked for. */
	cap: number;
	overstatedBy: number;
	noise: boolean;
}

interface Served {
	path: string;
	page: number;
	perPage: number;
}

let server: LoopbackServer;
let origin = '';
let current: PagingCase | undefined;
let served: Served[] = [];
/** Past this many requests in one case the server refuses, so a runaway loop fails fast. */
let budget = 0;

beforeAll(async () => {
	server = await startLoopbackServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://fuzz.invalid');
		const c = current!;
		const page = Number(url.searchParams.get('page'));
		const perPage = Number(url.searchParams.get('per_page'));
		served.push({ path: url.pathname.replace(/^\/api\/case\d+/, ''), page, perPage });
		const send = (status: number, body: unknown) =>
			res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		if (served.length > budget)
			send(410, { message: `fuzz: more than ${budget} requests for one list` });
		else send(200, envelope(c, page, perPage));
	});
	origin = server.origin;
});
afterAll(async () => server.close());

/** The server's page size: what was asked for, or less when it pages on its own terms. */
const pageSize = (c: PagingCase, perPage: number) =>
	c.quirk === 'smallerPages' ? Math.min(perPage, c.cap) : perPage;

function envelope(c: PagingCase, page: number, perPage: number): unknown {
	const size = pageSize(c, perPage);
	const realLast = Math.max(1, Math.ceil(c.count / size));
	const from = (page - 1) * size;
	const ids = Array.from(
		{ length: Math.max(0, Math.min(size, c.count - from)) },
		(_, i) => from + i + 1,
	);
	const items: unknown[] | null | undefined =
		ids.length === 0 && page > realLast && c.pastEnd !== 'empty'
			? c.pastEnd === 'null'
				? null
				: undefined
			: ids.map((id) => ({ id, name: `item ${id}` }));
	const lastPage: unknown = {
		exact: realLast,
		text: String(realLast),
		missing: undefined,
		null: null,
		garbage: 'many',
		zero: 0,
		fraction: realLast - 0.5,
		overstated: realLast + c.overstatedBy,
		understated: 1,
		smallerPages: realLast,
	}[c.quirk];
	const noise = c.noise
		? {
				current_page: 'one',
				total: -1,
				links: null,
				next_page_url: 'https://elsewhere.invalid/?page=99',
			}
		: {};
	const paging = c.quirk === 'missing' ? {} : { last_page: lastPage };
	const list = (key: string) => (items === undefined ? {} : { [key]: items });
	switch (c.operation.style) {
		case 'laravel':
			return {
				current_page: page,
				...list('data'),
				per_page: size,
				total: c.count,
				path: '/x',
				...paging,
				...noise,
			};
		case 'meta':
			return {
				...list('data'),
				meta: { current_page: page, per_page: size, total: c.count, ...paging },
				...noise,
			};
		case 'memories':
			return {
				message: 'ok',
				...list('memories'),
				meta: { current_page: page, total: c.count, ...paging },
				...noise,
			};
		case 'collections':
			return {
				message: 'ok',
				...list('collections'),
				meta: { current_page: page, total: c.count, ...paging },
				...noise,
			};
		default:
			return { ...list('data'), ...(c.noise ? noise : {}) }; // files: the bare list
	}
}

/** The items a correct client returns, and the pages it needs at least. */
function expectation(c: PagingCase): { ids: number[]; pages: number } {
	const asked = c.returnAll ? c.operation.maxPerPage : Math.min(c.operation.maxPerPage, c.limit);
	const size = pageSize(c, asked);
	const all = Array.from({ length: c.count }, (_, i) => i + 1);
	// last_page says 1 where there are more: a client can only believe it (the envelope style has no other clue)
	const believed =
		c.quirk === 'understated' && c.operation.style !== 'files' ? all.slice(0, size) : all;
	const ids = c.returnAll ? believed : believed.slice(0, c.limit);
	return { ids, pages: Math.max(1, Math.ceil(ids.length / size)) };
}

function pagingCase(r: Random): PagingCase {
	const operation = r.pick(OPERATIONS);
	const count = r.chance(0.1)
		? 0
		: r.chance(0.2)
			? operation.maxPerPage * r.int(1, 4)
			: r.int(1, operation.maxPerPage * 4 + 3);
	const quirks: Quirk[] =
		operation.style === 'files'
			? ['exact']
			: [
					'exact',
					'text',
					'missing',
					'null',
					'garbage',
					'zero',
					'fraction',
					'overstated',
					'understated',
					'smallerPages',
				];
	return {
		operation,
		count,
		returnAll: r.chance(0.6),
		limit: r.int(1, 50),
		quirk: r.pick(quirks),
		pastEnd: r.pick(['empty', 'null', 'missing'] as const),
		cap: r.int(1, Math.max(1, operation.maxPerPage - 1)),
		overstatedBy: r.pick([1, 2, 5, 1000, 1_000_000]),
		noise: r.chance(0.5),
	};
}

describe(`apiRequestAllItems through the list operations, fuzzed (seed ${SEED})`, () => {
	const random = prng(SEED ^ 0x5eed);
	const cases = Array.from({ length: RUNS || 60 }, (_, index) => ({
		index,
		c: pagingCase(random),
	}));

	it.each(
		cases.map(
			({ index, c }) =>
				[
					index,
					c.operation.name,
					c.quirk,
					c.returnAll ? 'Return All' : `Limit ${c.limit}`,
					c.count,
					c,
				] as const,
		),
	)('case %i: %s, last_page %s, %s of %i items', async (index, _name, _quirk, _mode, _count, c) => {
		const expected = expectation(c);
		current = c;
		served = [];
		// a correct client needs `pages`, and may look one page past a short or empty one; pages asked
		// for concurrently before the end was seen add at most PAGING.concurrency
		budget = expected.pages + 1 + PAGING.concurrency;
		const { outputs, error } = await runNode({
			parameters: {
				...c.operation.parameters,
				returnAll: c.returnAll,
				...(c.returnAll ? {} : { limit: c.limit }),
			},
			// A Base URL per case: each case's server pages on its own terms, and what a list learned
			// of its page size is kept per Base URL (transport/paginate.ts).
			credentials: { baseUrl: `${origin}/api/case${index}`, apiKey: 'fuzz-key', workspaceId: '1' },
		});
		const where = `case ${index} of seed ${SEED}: ${JSON.stringify({ ...c, operation: c.operation.name })}; served ${JSON.stringify(served)}`;
		expect({ where, error: error?.message }).toEqual({ where, error: undefined });
		expect({ where, ids: (outputs[0] ?? []).map((item) => item.json.id) }).toEqual({
			where,
			ids: expected.ids,
		});
		expect(
			served.every(
				(s) => s.path === c.operation.path && s.perPage >= 1 && s.perPage <= c.operation.maxPerPage,
			),
		).toBe(true);
		const pages = served.map((s) => s.page);
		expect({ where, twice: pages.filter((p, i) => pages.indexOf(p) !== i) }).toEqual({
			where,
			twice: [],
		});
		expect(served.length).toBeLessThanOrEqual(budget);
	});
});
