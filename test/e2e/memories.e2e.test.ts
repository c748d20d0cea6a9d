/**
 * Memories and memory collections inside real n8n 1.x and 2.x, with the packed package installed
 * as n8n's community installer would, against the emulator: a whole round trip in one workflow
 * (create collection → create memory in it → list → rename collection → update memory → delete
 * memory → delete collection), and Return All over more than three pages of memories.
 *
 * Run: npx jest --selectProjects e2e --runInBand test/e2e/memories.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	lastNodeItems,
	nodeItems,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-memories-key-8c2d';
const WORKSPACE_ID = '42';
/** More than three pages at the node's per_page of 50 (GET /memories allows at most 50). */
const SEEDED_MEMORIES = 163;
const MEMORIES_PER_PAGE = 50;

const CREDENTIAL = { id: fixtureId('credEmulator'), name: 'Agent Platform (emulator)' };
const WORKFLOW = { roundTrip: 'memoriesRoundTrp', getMany: 'memoriesGetAll01' };
const TEXT = {
	COLLECTION_NAME: 'E2E customers',
	NEW_COLLECTION_NAME: 'E2E customers (renamed)',
	MEMORY_TEXT: 'The customer prefers e-mail — and writes in Ünïcödé 🙂',
	NEW_MEMORY_TEXT: 'The customer now prefers the phone',
};

describeEachLine()('n8n $line ($version): memories and collections', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let fixture: LineN8n;

	useLineN8n(
		line,
		{
			tag: 'memories',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, seed: { memories: SEEDED_MEMORIES } },
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: () => {
				const vars = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name, ...TEXT };
				return [loadWorkflow('memories-roundtrip', vars), loadWorkflow('memories-get-many', vars)];
			},
		},
		(setUp) => ({ emu, n8n, fixture } = setUp),
	);

	test('round trip: create collection, create memory in it, list, rename, update, delete memory, delete collection', async () => {
		const before = emu.requests.length;
		const memoriesBefore = new Set(emu.state.memories.keys());
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW.roundTrip));

		const [collection] = nodeItems(run, 'Create Collection');
		expect(collection).toMatchObject({ name: TEXT.COLLECTION_NAME });
		const collectionId = collection.id as number;
		const [memory] = nodeItems(run, 'Create Memory');
		expect(memory).toMatchObject({ collection_id: collectionId, memory: TEXT.MEMORY_TEXT });
		const memoryId = memory.id as number;
		expect(memoriesBefore.has(memoryId)).toBe(false);
		// The list of that collection holds exactly the new memory, not the seeded ones.
		expect(nodeItems(run, 'List Memories')).toEqual([
			{
				id: memoryId,
				user_id: memory.user_id,
				collection_id: collectionId,
				memory: TEXT.MEMORY_TEXT,
				credits: 0,
			},
		]);
		expect(nodeItems(run, 'Rename Collection')).toEqual([
			{ id: collectionId, user_id: collection.user_id, name: TEXT.NEW_COLLECTION_NAME },
		]);
		expect(nodeItems(run, 'Update Memory')).toEqual([
			expect.objectContaining({
				id: memoryId,
				memory: TEXT.NEW_MEMORY_TEXT,
				collection_id: collectionId,
				collection: {
					id: collectionId,
					user_id: collection.user_id,
					name: TEXT.NEW_COLLECTION_NAME,
				},
			}),
		]);
		expect(nodeItems(run, 'Delete Memory')).toEqual([
			expect.objectContaining({ id: memoryId, deleted: true }),
		]);
		expect(lastNodeItems(run)).toEqual([
			expect.objectContaining({ id: collectionId, deleted: true }),
		]);

		// What the platform received, in order, each answered with success.
		const sent = emu.requests.slice(before);
		expect(sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /memory-collections 201',
			'POST /memories 201',
			'GET /memories 200',
			`PUT /memory-collections/${collectionId} 200`,
			`PATCH /memories/${memoryId} 200`,
			`DELETE /memories/${memoryId} 200`,
			`DELETE /memory-collections/${collectionId} 200`,
		]);
		expect(sent[0].body).toEqual({ name: TEXT.COLLECTION_NAME });
		expect(sent[1].body).toEqual({ memory: TEXT.MEMORY_TEXT, collection_id: collectionId });
		expect(sent[2].query).toEqual({
			collection_id: String(collectionId),
			page: '1',
			per_page: String(MEMORIES_PER_PAGE),
		});
		expect(sent[3].body).toEqual({ name: TEXT.NEW_COLLECTION_NAME });
		expect(sent[4].body).toEqual({ memory: TEXT.NEW_MEMORY_TEXT });
		for (const r of sent) {
			expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
			expect(r.headers['x-workspace-id']).toBe(WORKSPACE_ID);
		}
		// Nothing is left behind, and the seeded memories are untouched.
		expect(emu.state.collections.has(collectionId)).toBe(false);
		expect(new Set(emu.state.memories.keys())).toEqual(memoriesBefore);
	});

	test('Memory → Get Many with Return All returns every memory, over more than three pages', async () => {
		const before = emu.requests.length;
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW.getMany));

		const stored = [...emu.state.memories.keys()].sort((a, b) => a - b);
		expect(stored.length).toBeGreaterThanOrEqual(SEEDED_MEMORIES);
		const items = lastNodeItems(run);
		expect(items.map((i) => Number(i.id))).toEqual(stored);
		expect(new Set(items.map((i) => i.id)).size).toBe(items.length);

		const pages = emu.requests
			.slice(before)
			.filter((r) => r.method === 'GET' && r.path === '/memories');
		const pageCount = Math.ceil(stored.length / MEMORIES_PER_PAGE);
		expect(pageCount).toBeGreaterThanOrEqual(4);
		expect(pages.map((r) => r.query)).toEqual(
			Array.from({ length: pageCount }, (_, i) => ({
				page: String(i + 1),
				per_page: String(MEMORIES_PER_PAGE),
			})),
		);
		for (const r of pages) expect(r.status).toBe(200);
	});
});
