/**
 * The emulator's GET /workspaces/usage, as production's docs ("Workspace usage") describe it: the
 * workspace header (422 missing or not numeric, 403 for a workspace the key is not in), the windows
 * (range 1d | 7d | 30d up to the end of the current day, default 30d; start_date..end_date both
 * included, at most 90 days, winning over range), user_id (403 for another user's), type, page and
 * per_page (1–100, default 20) with has_more, newest first, and the 60-second cache.
 * Expected rows are written by hand from the seeded history (dev/emulator/usage.ts, SEEDED: days
 * before today and times) and those rules.
 */
import { call, chatBody, firstAgent, MICRO_TS, type Json } from './shared';

const usage = (query = '', headers: Record<string, string> = {}) =>
	call(`/workspaces/usage${query}`, { headers });
const ids = (json: Json) => (json.items as Json[]).map((item) => item.id);
/** A date `days` after today (UTC, as the emulator's days), as YYYY-MM-DD. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The key's user's seeded runs of the last 7 days (days 1 to 6 before today), newest first. */
const LAST_7_DAYS = [501, 500, 502, 504, 506, 507, 509, 508];
/** …and of the last 30 days: also 8, 12 (an edited chat) and 20 days before. */
const LAST_30_DAYS = [...LAST_7_DAYS, 510, 'chat-edited-911', 512];

describe('GET /workspaces/usage: the workspace header', () => {
	it('422 without x-workspace-id, or with one that is not a number', async () => {
		expect((await usage('', { 'x-workspace-id': '' })).status).toBe(422);
		expect((await usage('', { 'x-workspace-id': 'abc' })).status).toBe(422);
	});

	it("403 for a numeric workspace the key's user does not belong to", async () => {
		const { status, json } = await usage('', { 'x-workspace-id': '4242' });
		expect(status).toBe(403);
		expect(json.message).toMatch(/workspace/);
	});
});

describe('GET /workspaces/usage: what is listed', () => {
	it("the last 30 days by default: the key's user's executions, newest first, in the documented fields", async () => {
		const { status, json } = await usage();

		expect(status).toBe(200);
		expect(json).toMatchObject({ has_more: false, page: 1, per_page: 20 });
		expect(ids(json)).toEqual(LAST_30_DAYS);
		const [newest] = json.items as Json[];
		expect(Object.keys(newest).sort()).toEqual(
			[
				'id',
				'created_at',
				'user_id',
				'type',
				'status',
				'email',
				'credits',
				'name',
				'slug',
				'output',
				'root_id',
				'execution_origin',
			].sort(),
		);
		expect(newest).toMatchObject({
			user_id: 7,
			type: 'text',
			status: 'succeeded',
			credits: 1.25,
			name: 'Text Summarizer',
			output: 'This content is only available on Tess.',
			root_id: null,
		});
		expect(newest.created_at).toMatch(MICRO_TS);
		expect(newest.created_at.slice(0, 10)).toBe(day(-1));
	});

	it('a failed run costs 0 credits; archived and edited rows say so in their output', async () => {
		const { json } = await usage('?range=30d&per_page=100');
		const byId = new Map((json.items as Json[]).map((item) => [item.id, item]));
		expect(byId.get(506)).toMatchObject({ status: 'failed', credits: 0, name: 'Always Fails' });
		expect(byId.get(508)).toMatchObject({
			type: 'voiceover',
			output: 'This item was deleted.',
			credits: 2.5,
		});
		expect(byId.get('chat-edited-911')).toMatchObject({
			type: 'chat',
			output: 'This item was edited.',
		});
	});

	it.each([
		['?range=1d', []],
		['?range=7d', LAST_7_DAYS],
		['?range=30d', LAST_30_DAYS],
	])('%s: whole days up to the end of today', async (query, expected) => {
		const { json } = await usage(query);
		expect(ids(json)).toEqual(expected);
	});

	it('start_date..end_date, both included, and they win over range', async () => {
		const { json } = await usage(`?range=1d&start_date=${day(-6)}&end_date=${day(-2)}`);
		expect(ids(json)).toEqual([502, 504, 506, 507, 509, 508]);
		// 90 days ending yesterday: also the run of 45 days before
		const wide = await usage(`?start_date=${day(-90)}&end_date=${day(-1)}`);
		expect(ids(wide.json)).toEqual([...LAST_30_DAYS, 513]);
	});

	it('the type filter, and all as no filter', async () => {
		expect(ids((await usage('?range=7d&type=chat')).json)).toEqual([500, 504]);
		expect(ids((await usage('?range=7d&type=all')).json)).toEqual(LAST_7_DAYS);
	});

	it("user_id: the key's own user is listed; another user's is a 403 without the permission", async () => {
		expect(ids((await usage('?range=7d&user_id=7')).json)).toEqual(LAST_7_DAYS);
		const other = await usage('?range=7d&user_id=8');
		expect(other.status).toBe(403);
	});

	it('pages by has_more: true while a row follows, false on the last page even when it is full', async () => {
		const first = await usage('?range=7d&per_page=3');
		const second = await usage('?range=7d&per_page=3&page=2');
		const third = await usage('?range=7d&per_page=3&page=3');
		const fourth = await usage('?range=7d&per_page=4&page=2');
		expect([first, second, third, fourth].map(({ json }) => [ids(json), json.has_more])).toEqual([
			[[501, 500, 502], true],
			[[504, 506, 507], true],
			[[509, 508], false],
			[[506, 507, 509, 508], false],
		]);
	});

	it("lists the runs it made: today's, with their credits, agent and origin", async () => {
		const agent = await firstAgent('chat');
		const ran = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'usage?', { waitExecution: true }),
		});
		const run = ran.json.responses[0];
		const { json } = await usage('?range=1d&type=chat');
		expect(json.items).toEqual([
			expect.objectContaining({
				id: run.id,
				created_at: run.created_at,
				status: 'succeeded',
				credits: run.credits,
				name: agent.title,
				slug: agent.slug,
				type: 'chat',
				root_id: run.root_id,
				execution_origin: 'api',
			}),
		]);
	});
});

describe('GET /workspaces/usage: refused queries (422)', () => {
	it.each([
		[`?start_date=${'2026-01-01'}`, 'end_date'],
		[`?end_date=${'2026-01-01'}`, 'start_date'],
		['?start_date=2026-01-10&end_date=2026-01-09', 'end_date'],
		['?start_date=2026-01-01&end_date=2026-04-01', 'end_date'],
		['?start_date=2026-02-30&end_date=2026-03-01', 'start_date'],
		['?start_date=01/01/2026&end_date=2026-03-01', 'start_date'],
		['?range=14d', 'range'],
		['?type=audio', 'type'],
		['?per_page=0', 'per_page'],
		['?per_page=101', 'per_page'],
		['?page=0', 'page'],
		['?user_id=me', 'user_id'],
	])('%s names %s', async (query, field) => {
		const { status, json } = await usage(query);
		expect(status).toBe(422);
		expect(Object.keys(json.errors)).toEqual([field]);
	});

	it('exactly 90 days, both included, is listed', async () => {
		expect((await usage('?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(200);
	});
});

describe('GET /workspaces/usage: the cache', () => {
	it('an identical request within 60 seconds gets the same payload; after them, the new run', async () => {
		const agent = await firstAgent('text');
		const before = await usage('?range=1d&type=text&per_page=7');
		const ran = await call(`/agents/${agent.id}/execute`, {
			body: { answers: { topic: 'otters', tone: 'casual' }, waitExecution: true },
		});
		const runId = ran.json.responses[0].id;
		expect(ids((await usage('?range=1d&type=text&per_page=7')).json)).toEqual(ids(before.json));
		// another page size is another listing
		expect(ids((await usage('?range=1d&type=text&per_page=8')).json)).toContain(runId);
		// 60 virtual seconds at the emulator's time scale (20)
		await new Promise((resolve) => setTimeout(resolve, 3100));
		expect(ids((await usage('?range=1d&type=text&per_page=7')).json)).toContain(runId);
	});
});
