/**
 * Workspace → Get Usage against the emulator, through n8n's real execution machinery: the query
 * sent for each Period, paging by `has_more` (Return All: pages of 100; Limit), the checks that
 * refuse bad dates before anything is sent, and the platform's 422 and 403 as NodeApiErrors.
 * Expected values are written by hand from production's docs ("Workspace usage": newest first,
 * `per_page` at most 100, `has_more`) and the runs each test puts in the emulator.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PlatformEmulator, StoredRun } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT, TEXT_AGENT } from '../../../dev/emulator';

let emu: PlatformEmulator;
useEmulator({ quiet: true }, (started) => (emu = started));

/** 250 runs of today (Today holds them and none of the emulator's seeded history). */
const RUNS = 250;
const FIRST_RUN_ID = 90_001;

beforeAll(() => {
	const now = new Date().toISOString().replace('Z', '000Z');
	for (let i = 0; i < RUNS; i++) {
		const id = FIRST_RUN_ID + i;
		const run: StoredRun = {
			id,
			status: i % 10 === 9 ? 'failed' : 'succeeded',
			input: `question ${i}`,
			output: `answer ${i}`,
			error: null,
			credits: 0.5,
			root_id: id,
			created_at: now,
			updated_at: now,
			template_id: i % 2 === 0 ? CHAT_AGENT : TEXT_AGENT,
			answers: {},
			fileIds: [],
			via: 'execute',
		};
		emu.state.runs.set(id, run);
	}
});

const usageRequests = () => emu.requests.filter((r) => r.path === '/workspaces/usage');

function usage(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'workspace', operation: 'getUsage', ...extra };
}

async function run(
	parameters: INodeParameters,
	options: Partial<Parameters<typeof runNode>[0]> = {},
) {
	return await runNode({ parameters, credentials: credentialsFor(emu), ...options });
}

/** A date `days` after today (negative: before), as YYYY-MM-DD. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('Workspace → Get Usage: paging by has_more', () => {
	it('Return All reads 250 executions in exactly 3 requests of 100, newest first', async () => {
		const { outputs, error } = await run(usage({ period: '1d', returnAll: true }));

		expect(error).toBeUndefined();
		expect(usageRequests().map((r) => r.query)).toEqual([
			{ range: '1d', page: '1', per_page: '100' },
			{ range: '1d', page: '2', per_page: '100' },
			{ range: '1d', page: '3', per_page: '100' },
		]);
		const items = outputs[0].map((item) => item.json);
		expect(items).toHaveLength(250);
		// newest first: same time, so by id descending
		expect(items[0].id).toBe(FIRST_RUN_ID + 249);
		expect(items[249].id).toBe(FIRST_RUN_ID);
		expect(new Set(items.map((item) => item.id)).size).toBe(250);
		// the platform's fields, as sent: run 249 is a failed run of the text agent
		expect(items[0]).toEqual({
			id: FIRST_RUN_ID + 249,
			created_at: expect.any(String),
			user_id: 7,
			type: 'text',
			status: 'failed',
			email: expect.any(String),
			credits: 0,
			name: 'Text Summarizer',
			slug: expect.stringMatching(/^text-summarizer/),
			output: expect.any(String),
			root_id: null,
			execution_origin: 'api',
		});
		expect(items[1]).toMatchObject({ type: 'chat', status: 'succeeded', credits: 0.5 });
		// 225 succeeded runs of 0.5 credits each
		const total = items.reduce((sum, item) => sum + Number(item.credits), 0);
		expect(total).toBe(112.5);
	});

	it('Limit asks for no more than it needs: 30 in one request of 30', async () => {
		const { outputs } = await run(usage({ period: '1d', returnAll: false, limit: 30 }));

		expect(usageRequests().map((r) => r.query)).toEqual([
			{ range: '1d', page: '1', per_page: '30' },
		]);
		expect(outputs[0].map((item) => item.json.id)).toEqual(
			Array.from({ length: 30 }, (_, i) => FIRST_RUN_ID + 249 - i),
		);
	});

	it('Limit 150: two pages of 100, the 150 newest', async () => {
		const { outputs } = await run(usage({ period: '1d', returnAll: false, limit: 150 }));

		expect(usageRequests().map((r) => r.query.page)).toEqual(['1', '2']);
		expect(outputs[0]).toHaveLength(150);
		expect(outputs[0][149].json.id).toBe(FIRST_RUN_ID + 100);
	});
});

describe('Workspace → Get Usage: a run arriving while the pages are read', () => {
	it('pushes the last row of a page onto the next: it is kept once', async () => {
		// page 2 waits 300 ms in the emulator before it is read: the new run comes in then
		emu.setFaults({ latencyMs: 300 });
		const today = day(0);
		const listing = run(
			usage({ period: 'custom', startDate: today, endDate: today, returnAll: true }),
		);
		await emu.waitFor(() => usageRequests().length === 2);
		const newest = { ...emu.state.runs.get(FIRST_RUN_ID)!, id: FIRST_RUN_ID + 5000 };
		emu.state.runs.set(newest.id, newest);
		const { outputs, error } = await listing;
		emu.state.runs.delete(newest.id);

		expect(error).toBeUndefined();
		expect(usageRequests().map((r) => r.query.page)).toEqual(['1', '2', '3']);
		// page 1 was read before the run came: its 100, then 99 new ones and the last 51 of 251
		const got = outputs[0].map((item) => item.json.id);
		expect(got).toEqual(Array.from({ length: 250 }, (_, i) => FIRST_RUN_ID + 249 - i));
	});
});

describe('Workspace → Get Usage: what is asked', () => {
	it('the default Period is the last 30 days', async () => {
		await run(usage({ limit: 5 }));
		expect(usageRequests()[0].query).toEqual({ range: '30d', page: '1', per_page: '5' });
	});

	it('a custom range sends both dates (not range), and lists both days in full', async () => {
		const { outputs, error } = await run(
			usage({
				period: 'custom',
				startDate: `${day(-8)}T00:00:00`,
				endDate: `${day(-1)}T00:00:00`,
				returnAll: true,
			}),
		);

		expect(error).toBeUndefined();
		expect(usageRequests()[0].query).toEqual({
			start_date: day(-8),
			end_date: day(-1),
			page: '1',
			per_page: '100',
		});
		// the emulator's seeded history of the key's user, from 8 days ago to yesterday, newest first
		expect(outputs[0].map((item) => item.json.id)).toEqual([
			501, 500, 502, 504, 506, 507, 509, 508, 510,
		]);
	});

	it('sends the filters User ID and Type', async () => {
		const { outputs } = await run(
			usage({ period: '7d', returnAll: true, filters: { userId: '7', type: 'voiceover' } }),
		);

		expect(usageRequests()[0].query).toMatchObject({
			range: '7d',
			user_id: '7',
			type: 'voiceover',
		});
		// an archived run of a deleted voiceover agent, 6 days ago
		expect(outputs[0].map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 508, type: 'voiceover', credits: 2.5, name: 'Narrator' }),
		]);
	});
});

describe('Workspace → Get Usage: bad input, checked before any request', () => {
	it.each([
		[
			'an end before the start',
			{ startDate: '2026-11-10', endDate: '2026-11-01' },
			'The End Date 2026-11-01 is before the Start Date 2026-11-10 (item 1)',
		],
		[
			'91 days',
			{ startDate: '2026-01-01', endDate: '2026-04-01' },
			'The dates from Start Date 2026-01-01 to End Date 2026-04-01 span 91 days; the platform lists at most 90 (item 1)',
		],
		// n8n's editor requires both dates; an expression may still give nothing
		[
			'no end date',
			{ startDate: '2026-11-01', endDate: '={{ "" }}' },
			'The End Date is empty (item 1)',
		],
		[
			'no start date',
			{ startDate: '={{ null }}', endDate: '2026-11-01' },
			'The Start Date is empty (item 1)',
		],
		[
			'a date that does not exist',
			{ startDate: '2026-02-30', endDate: '2026-03-01' },
			'The Start Date "2026-02-30" is not a date (item 1)',
		],
	])('%s', async (_, dates, message) => {
		const { error } = await run(usage({ period: 'custom', ...dates }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(message);
		expect(emu.requests).toHaveLength(0);
	});

	it('exactly 90 days, both dates included, is asked', async () => {
		const { error } = await run(
			usage({ period: 'custom', startDate: '2026-01-01', endDate: '2026-03-31', limit: 1 }),
		);
		expect(error).toBeUndefined();
		expect(usageRequests()[0].query).toMatchObject({
			start_date: '2026-01-01',
			end_date: '2026-03-31',
		});
	});

	it('a User ID that is not a number names the parameter and the item', async () => {
		const { error } = await run(usage({ filters: { userId: 'ana' } }), {
			items: [{ json: {} }, { json: {} }],
			parameters: usage({ filters: { userId: '={{ $itemIndex === 1 ? "ana" : "7" }}' } }),
		});
		expect(error!.message).toBe('The User ID "ana" is not a number (item 2)');
	});
});

describe('Workspace → Get Usage: the platform refuses', () => {
	it.each([
		['no workspace ID', ''],
		['a workspace ID that is not a number', 'abc'],
	])('422 for %s: a NodeApiError about the workspace ID', async (_, workspaceId) => {
		const { error } = await runNode({
			parameters: usage(),
			credentials: { ...credentialsFor(emu), workspaceId },
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('422');
		expect(error!.message).toBe('The platform refused the workspace ID');
	});

	it("403 for a workspace the key's user is not in", async () => {
		const { error } = await runNode({
			parameters: usage(),
			credentials: { ...credentialsFor(emu), workspaceId: '4242' },
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('403');
		expect(error!.message).toBe('The platform refused the workspace ID');
		expect((error as NodeApiError).description).toMatch(/belongs to/);
	});

	it("403 for another user's executions without the permission", async () => {
		const { error } = await run(usage({ filters: { userId: '8' } }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('403');
		expect(error!.message).toBe(
			"The platform refused this action: You do not have permission to view other users' usage.",
		);
		expect((error as NodeApiError).description).toContain(
			'The API key is valid but may not do this.',
		);
	});

	it("Continue On Fail: the refused item becomes an error item, the others' usage is listed", async () => {
		const { outputs, error } = await run(
			usage({ period: '7d', returnAll: true, filters: { userId: '={{ $json.user }}' } }),
			{ items: [{ json: { user: '8' } }, { json: { user: '7' } }], continueOnFail: true },
		);

		expect(error).toBeUndefined();
		const [refused, ...listed] = outputs[0];
		expect(refused.json.error).toBe(
			"The platform refused this action: You do not have permission to view other users' usage.",
		);
		expect(refused.pairedItem).toEqual({ item: 0 });
		expect(listed.length).toBeGreaterThan(0);
		expect(listed.every((item) => item.json.user_id === 7)).toBe(true);
		expect(listed.every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
	});
});
