/**
 * Memory operations (Create, Get Many, Update, Delete) against the emulator, through n8n's real
 * execution machinery (test/infra/n8n/): what is sent, what comes out, paging with Return All
 * and Limit, and the checks that refuse bad input before anything is sent.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor, fromList } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { clearMemories, useEmulator } from '../../infra/useEmulator';

const DEFAULT_COLLECTION = 1;
let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => clearMemories(emu));

const memoryRequests = () => emu.requests.filter((r) => r.path.startsWith('/memories'));

function memory(operation: string, extra: INodeParameters = {}): INodeParameters {
	return { resource: 'memory', operation, ...extra };
}

const seedMemories = (count: number, collectionId = DEFAULT_COLLECTION) =>
	emu.seedMemories(count, collectionId);

function addCollection(name: string): number {
	const id = 300 + emu.state.collections.size;
	emu.state.collections.set(id, { id, user_id: 7, name, display_name: name });
	return id;
}

async function run(
	parameters: INodeParameters,
	options: Partial<Parameters<typeof runNode>[0]> = {},
) {
	return await runNode({ parameters, credentials: credentialsFor(emu), ...options });
}

describe('Memory → Create', () => {
	it('stores the text in the default collection when no collection is picked', async () => {
		const { outputs, error } = await run(memory('create', { memory: 'Prefers email' }));

		expect(error).toBeUndefined();
		const [request] = memoryRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/memories', status: 201 });
		expect(request.body).toEqual({ memory: 'Prefers email' });
		expect(outputs[0]).toHaveLength(1);
		const created = outputs[0][0].json;
		expect(created).toMatchObject({
			memory: 'Prefers email',
			collection_id: DEFAULT_COLLECTION,
			credits: 0,
		});
		expect(emu.state.memories.get(created.id as number)?.memory).toBe('Prefers email');
	});

	it('stores the text in the collection picked from the list', async () => {
		const collection = addCollection('customers');
		const { outputs, error } = await run(
			memory('create', { memory: 'VIP', collectionId: fromList(collection) }),
		);

		expect(error).toBeUndefined();
		expect(memoryRequests()[0].body).toEqual({ memory: 'VIP', collection_id: collection });
		expect(outputs[0][0].json).toMatchObject({ memory: 'VIP', collection_id: collection });
	});

	it('accepts exactly 32000 characters, counted as characters (not UTF-16 units)', async () => {
		const text = '🙂'.repeat(32000); // 64000 UTF-16 units, 32000 characters
		const { outputs, error } = await run(memory('create', { memory: text }));

		expect(error).toBeUndefined();
		expect(memoryRequests()).toHaveLength(1);
		expect((outputs[0][0].json.memory as string).length).toBe(64000);
	});

	it('refuses 32001 characters with a clear error, sending nothing', async () => {
		const { outputs, error } = await run(memory('create', { memory: 'a'.repeat(32001) }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(
			'The Memory is 32001 characters long; the platform stores at most 32000 (item 1)',
		);
		expect((error as NodeOperationError).description).toMatch(/shorten|split/i);
		expect(outputs).toEqual([]);
		expect(emu.requests).toHaveLength(0);
	});

	it('refuses an empty memory, sending nothing', async () => {
		const { error } = await run(memory('create', { memory: '   ' }));

		expect(error?.message).toBe('The Memory is empty (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('refuses a collection ID that is not a number (from an expression), sending nothing', async () => {
		// n8n's editor checks a typed ID; an expression's value is only checked by the node.
		const { error } = await run(
			memory('create', { memory: 'x', collectionId: byId('={{ "customers" }}') }),
		);

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The collection "customers" is not a valid ID (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('with Continue On Fail, an over-long item becomes an error item and the others are stored', async () => {
		const items = [
			{ json: { text: 'first' } },
			{ json: { text: 'b'.repeat(32001) } },
			{ json: { text: 'third' } },
		];
		const { outputs, error } = await run(memory('create', { memory: '={{ $json.text }}' }), {
			items,
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(memoryRequests().map((r) => (r.body as { memory: string }).memory)).toEqual([
			'first',
			'third',
		]);
		expect(outputs[0]).toHaveLength(3);
		expect(outputs[0][0]).toMatchObject({ json: { memory: 'first' }, pairedItem: { item: 0 } });
		expect(outputs[0][1].json.error).toBe(
			'The Memory is 32001 characters long; the platform stores at most 32000 (item 2)',
		);
		expect(outputs[0][1].pairedItem).toEqual({ item: 1 });
		expect(outputs[0][2]).toMatchObject({ json: { memory: 'third' }, pairedItem: { item: 2 } });
	});

	it('says in plain words when the picked collection does not exist', async () => {
		const { error } = await run(memory('create', { memory: 'x', collectionId: byId(999) }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe(
			'The platform refused the request: The selected collection id is invalid.',
		);
		expect(memoryRequests()).toHaveLength(1); // a refused POST is not retried
	});
});

describe('Memory → Get Many', () => {
	it('Return All follows every page at per_page 50 and returns every memory', async () => {
		const ids = seedMemories(123);
		const { outputs, error } = await run(memory('getAll', { returnAll: true }));

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(ids);
		const pages = memoryRequests();
		expect(pages.map((r) => r.query)).toEqual([
			{ page: '1', per_page: '50' },
			{ page: '2', per_page: '50' },
			{ page: '3', per_page: '50' },
		]);
		expect(outputs[0].map((i) => i.pairedItem)).toEqual(ids.map(() => ({ item: 0 })));
	});

	it('Limit 7 asks for one page of 7 and returns 7 memories', async () => {
		const ids = seedMemories(30);
		const { outputs, error } = await run(memory('getAll', { returnAll: false, limit: 7 }));

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(ids.slice(0, 7));
		expect(memoryRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '7' }]);
	});

	it('Limit 60 asks for two pages of 50 (never more than the endpoint allows) and returns 60', async () => {
		const ids = seedMemories(120);
		const { outputs } = await run(memory('getAll', { returnAll: false, limit: 60 }));

		expect(outputs[0].map((i) => i.json.id)).toEqual(ids.slice(0, 60));
		expect(memoryRequests().map((r) => r.query)).toEqual([
			{ page: '1', per_page: '50' },
			{ page: '2', per_page: '50' },
		]);
	});

	it('filters by the picked collection', async () => {
		const collection = addCollection('orders');
		seedMemories(5);
		const inCollection = seedMemories(3, collection);
		const { outputs, error } = await run(
			memory('getAll', { collectionId: fromList(collection), returnAll: true }),
		);

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(inCollection);
		expect(memoryRequests()[0].query).toEqual({
			collection_id: String(collection),
			page: '1',
			per_page: '50',
		});
	});

	it('returns no items (and no error) when there are none', async () => {
		const { outputs, error } = await run(memory('getAll', { returnAll: true }));

		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([]);
		expect(memoryRequests()).toHaveLength(1);
	});
});

describe('Memory → Update', () => {
	it('replaces the text with PATCH and returns the memory with its collection', async () => {
		const [id] = seedMemories(1);
		const { outputs, error } = await run(
			memory('update', { memoryId: String(id), memory: 'New text' }),
		);

		expect(error).toBeUndefined();
		const [request] = memoryRequests();
		expect(request).toMatchObject({ method: 'PATCH', path: `/memories/${id}`, status: 200 });
		expect(request.body).toEqual({ memory: 'New text' });
		expect(outputs[0][0].json).toMatchObject({
			id,
			memory: 'New text',
			collection_id: DEFAULT_COLLECTION,
			collection: { id: DEFAULT_COLLECTION, name: 'default' },
		});
		expect(emu.state.memories.get(id)?.memory).toBe('New text');
	});

	it('moves the memory to the picked collection', async () => {
		const [id] = seedMemories(1);
		const collection = addCollection('archive');
		const { outputs } = await run(
			memory('update', {
				memoryId: String(id),
				memory: 'Moved',
				collectionId: fromList(collection),
			}),
		);

		expect(memoryRequests()[0].body).toEqual({ memory: 'Moved', collection_id: collection });
		expect(outputs[0][0].json).toMatchObject({
			collection_id: collection,
			collection: { id: collection, name: 'archive' },
		});
	});

	it('refuses a memory ID that is not a number, sending nothing', async () => {
		const { error } = await run(memory('update', { memoryId: '12abc', memory: 'x' }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The memory "12abc" is not a valid ID (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('refuses an over-long text, sending nothing', async () => {
		const [id] = seedMemories(1);
		const { error } = await run(
			memory('update', { memoryId: String(id), memory: 'x'.repeat(32001) }),
		);

		expect(error?.message).toMatch(/32001 characters long/);
		expect(emu.requests).toHaveLength(0);
	});

	it('says in plain words that an unknown memory was not found', async () => {
		const { error } = await run(memory('update', { memoryId: '999999', memory: 'x' }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The platform could not find memory 999999');
	});
});

describe('Memory → Delete', () => {
	it('deletes the memory and says so', async () => {
		const [id, other] = seedMemories(2);
		const { outputs, error } = await run(memory('delete', { memoryId: ` ${id} ` }));

		expect(error).toBeUndefined();
		expect(memoryRequests()).toEqual([
			expect.objectContaining({ method: 'DELETE', path: `/memories/${id}`, status: 200 }),
		]);
		expect(outputs[0][0].json).toEqual({
			id,
			deleted: true,
			message: 'Memory deleted successfully',
		});
		expect(emu.state.memories.has(id)).toBe(false);
		expect(emu.state.memories.has(other)).toBe(true);
	});

	it('says in plain words that an unknown memory was not found', async () => {
		const { error } = await run(memory('delete', { memoryId: '999999' }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The platform could not find memory 999999');
		expect((error as NodeApiError).description).toContain('Memory not found!');
	});

	it('refuses an empty memory ID (from an expression), sending nothing', async () => {
		const { error } = await run(memory('delete', { memoryId: '={{ $json.missing }}' }));

		expect(error?.message).toBe('The memory is empty (item 1)');
		expect(emu.requests).toHaveLength(0);
	});
});
