/**
 * The paging helper (transport/paginate.ts) and the run's rate gate (transport/rateLimit.ts)
 * against the emulator, through n8n's real execution machinery: pages after the first are fetched
 * concurrently (bounded by PAGING.concurrency), items keep the platform's order, Limit asks for
 * no page it does not need, envelopes without last_page (files) are read one page after another,
 * and a 429 makes every request of the run wait as the platform asks, with no item lost.
 *
 * The emulator's latency makes concurrency visible in its request record: a request that arrives
 * while others are still being answered overlaps them.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PAGING } from '../../../nodes/AgentPlatform/transport/paginate';
import { PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import type { PlatformEmulator, RecordedRequest } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';

let emu: PlatformEmulator;
const savedPaging = { ...PAGING };
const savedRetry = { ...RETRY };

beforeAll(async () => {
	emu = await startEmulator({ quiet: true });
});
afterAll(async () => {
	Object.assign(RETRY, savedRetry);
	await emu.stop();
});
beforeEach(() => {
	Object.assign(PAGING, savedPaging);
	emu.resetFaults();
	emu.clearRequests();
	emu.state.memories.clear();
	emu.state.files.clear();
});

const seedMemories = (count: number) => emu.seedMemories(count);

const memoryPages = () => emu.requests.filter((r) => r.path === '/memories');
const pageNumbers = (requests: RecordedRequest[]) =>
	requests.map((r) => Number(r.query.page)).sort((a, b) => a - b);

/** The most requests that arrived within `spanMs` of each other: a lower bound of those in flight at once. */
function mostArrivedWithin(requests: RecordedRequest[], spanMs: number): number {
	let most = 0;
	for (const request of requests) {
		const near = requests.filter(
			(other) => other.at <= request.at && request.at - other.at < spanMs,
		).length;
		most = Math.max(most, near);
	}
	return most;
}

async function run(parameters: INodeParameters, items?: INodeExecutionData[]) {
	return await runNode({ parameters, credentials: credentialsFor(emu), items });
}

describe('pages with last_page (memories)', () => {
	it("Return All reads the first page, then the other pages at once, and keeps the platform's order", async () => {
		const ids = seedMemories(50 * 9 + 7); // ten pages, the last one short
		emu.setFaults({ latencyMs: 150 });
		const started = Date.now();
		const { outputs, error } = await run({
			resource: 'memory',
			operation: 'getAll',
			returnAll: true,
		});
		const took = Date.now() - started;

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		expect(outputs[0].every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		const pages = memoryPages();
		expect(pageNumbers(pages)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		expect(pages.every((r) => r.query.per_page === '50')).toBe(true);
		// page 1 alone (it tells last_page), then pages 2 to 10 together
		expect(pages[0].query.page).toBe('1');
		expect(Math.min(...pages.slice(1).map((r) => r.at)) - pages[0].at).toBeGreaterThanOrEqual(140);
		expect(mostArrivedWithin(pages.slice(1), 140)).toBe(9); // all before the first of them was answered
		// two round trips of 150 ms, not ten
		expect(took).toBeLessThan(10 * 150);
	});

	it('asks for at most PAGING.concurrency pages at once', async () => {
		PAGING.concurrency = 3;
		const ids = seedMemories(50 * 10);
		emu.setFaults({ latencyMs: 150 });
		const { outputs, error } = await run({
			resource: 'memory',
			operation: 'getAll',
			returnAll: true,
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const later = memoryPages().slice(1);
		expect(pageNumbers(later)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
		// three at a time: never four within less than the latency of each other
		expect(mostArrivedWithin(later, 100)).toBe(3);
	});

	it('Limit asks only for the pages it needs and returns exactly Limit items, in order', async () => {
		const ids = seedMemories(400);
		const { outputs, error } = await run({
			resource: 'memory',
			operation: 'getAll',
			returnAll: false,
			limit: 175,
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids.slice(0, 175));
		expect(pageNumbers(memoryPages())).toEqual([1, 2, 3, 4]);
	});

	it('a list shorter than one page costs one request', async () => {
		const ids = seedMemories(12);
		const { outputs } = await run({ resource: 'memory', operation: 'getAll', returnAll: true });

		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		expect(memoryPages()).toHaveLength(1);
	});

	it("a later page that keeps failing fails the node with the platform's words", async () => {
		Object.assign(RETRY, { baseDelayMs: 10, maxDelayMs: 40 });
		seedMemories(50 * 4);
		emu.setFaults({ latencyMs: 20 });
		// once page 1 is answered, every GET fails with 503 (the retries run out)
		const failAfterFirst = setInterval(() => {
			if (memoryPages()[0]?.status === 200)
				emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 503 });
		}, 1);
		try {
			const { outputs, error } = await run({
				resource: 'memory',
				operation: 'getAll',
				returnAll: true,
			});
			expect(outputs).toEqual([]);
			expect(error?.message).toMatch(/problem on its side/);
			expect(memoryPages()[0].status).toBe(200);
			expect(memoryPages().filter((r) => r.status === 503).length).toBeGreaterThanOrEqual(
				RETRY.maxAttempts,
			);
		} finally {
			clearInterval(failAfterFirst);
			Object.assign(RETRY, savedRetry);
		}
	});
});

describe('pages without last_page (files)', () => {
	it('reads one page after another and stops at the first short page', async () => {
		for (let i = 0; i < 230; i++) {
			const id = 5000 + i;
			emu.state.files.set(id, {
				id,
				object: 'file',
				created_at: `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}+00:00`,
				bytes: 1,
				filename: `f${i}.txt`,
				credits: 0,
				status: 'completed',
				mimeType: 'text/plain',
				sha256: '',
				content: null,
			});
		}
		emu.setFaults({ latencyMs: 50 });
		const { outputs, error } = await run({
			resource: 'file',
			operation: 'getAll',
			returnAll: true,
		});

		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(230);
		const pages = emu.requests.filter((r) => r.path === '/files');
		expect(pages.map((r) => r.query.page)).toEqual(['1', '2', '3']);
		// one after another: each arrived after the previous one was answered
		for (let i = 1; i < pages.length; i++)
			expect(pages[i].at - pages[i - 1].at).toBeGreaterThanOrEqual(45);
	});
});

describe('rate limit (429 with retry_after)', () => {
	it('every page arrives, in order, and after a 429 no request of the run is sent before the wait is over', async () => {
		const ids = seedMemories(50 * 30);
		// 10 requests a second (a burst of 10), latency 10 ms; each 429 asks for 1 s
		emu.setFaults({ rateLimitPerSecond: 10, latencyMs: 10, retryAfterSeconds: 1 });
		// a 429 teaches the documented rate (1 a second in production): ten times that here
		const documentedRate = PACING.documentedRate;
		PACING.documentedRate = 10;
		const started = Date.now();
		const { outputs, error } = await run({
			resource: 'memory',
			operation: 'getAll',
			returnAll: true,
		}).finally(() => (PACING.documentedRate = documentedRate));
		const seconds = (Date.now() - started) / 1000;

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const all = memoryPages();
		const refused = all.filter((r) => r.status === 429);
		const answered = all.filter((r) => r.status === 200);
		expect(refused.length).toBeGreaterThan(0);
		expect(pageNumbers(answered)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
		for (const limited of refused) {
			// requests already on their way may still arrive; nothing new is sent for the asked second
			const early = all.filter((r) => r.at > limited.at + 250 && r.at < limited.at + 750);
			expect(early).toEqual([]);
		}
		// 30 pages at 10 a second with a burst of 10: about 2 s; the whole-run back-off keeps it near that
		expect(seconds).toBeLessThan(5);
	});

	it('items of one run back off together (Batch Size 4): each creates its memory exactly once', async () => {
		emu.setFaults({ rateLimitPerSecond: 2, retryAfterSeconds: 0.5 });
		const items = Array.from({ length: 8 }, (_, i) => ({ json: { text: `note ${i}` } }));
		const { outputs, error } = await run(
			{
				resource: 'memory',
				operation: 'create',
				memory: '={{ $json.text }}',
				batching: { batchSize: 4 },
			},
			items,
		);

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.memory)).toEqual(items.map((item) => item.json.text));
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		const stored = [...emu.state.memories.values()].map((m) => m.memory).sort();
		expect(stored).toEqual(items.map((item) => item.json.text).sort());
		const posts = emu.requests.filter((r) => r.method === 'POST');
		const refused = posts.filter((r) => r.status === 429);
		expect(refused.length).toBeGreaterThan(0);
		for (const limited of refused) {
			const early = posts.filter((r) => r.at > limited.at + 150 && r.at < limited.at + 400);
			expect(early).toEqual([]);
		}
	});
});
