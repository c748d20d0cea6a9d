/**
 * Fuzz test of the paging helper (transport/paginate.ts), driven by a seeded PRNG (seed.ts): a
 * loopback server answers each list operation with random lists in its envelope style, with odd
 * paging fields (last_page missing, null, text, zero, too high, too low; a smaller page than asked
 * for; noise fields; a null or missing list past the end; workspace usage's has_more); the node, run through n8n's real
 * request path (test/infra/n8n/), must return exactly the items it should, never ask for a
 * page twice or more per_page than the endpoint allows, and stop within a few pages of the real end.
 */
import type { INodeParameters } from 'n8n-workflow';
import { PAGE_LIMITS } from '../../../nodes/AgentPlatform/helpers/records/lists';
import { PAGING } from '../../../nodes/AgentPlatform/transport/paginate';
import { startLoopbackServer, type LoopbackServer } from '../../../dev/loopback';
import { UNPACED_REQUESTS_PER_SECOND } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { SEED, RUNS, prng, Random } from './seed';

type Style = 'laravel' | 'meta' | 'memories' | 'collections' | 'files' | 'usage';
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
	{
		name: 'Workspace → Get Usage',
		style: 'usage',
		path: '/workspaces/usage',
		maxPerPage: PAGE_LIMITS.usage,
		parameters: { resource: 'workspace', operation: 'getUsage' },
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
		case 'usage': // no last_page: has_more says whether a page follows
			return { ...list('items'), has_more: from + size < c.count, page, per_page: size, ...noise };
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
			: operation.style === 'usage'
				? ['exact', 'smallerPages']
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
			// Unpaced: the paging is under test, not the pace (at the credential's default of 1 request a
			// second, a case of 130 small pages outlasted jest's 120 s and spilled into the next cases).
			credentials: {
				baseUrl: `${origin}/api/case${index}`,
				apiKey: 'fuzz-key',
				workspaceId: '1',
				requestsPerSecond: UNPACED_REQUESTS_PER_SECOND,
			},
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
