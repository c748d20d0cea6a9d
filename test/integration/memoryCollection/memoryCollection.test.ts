/**
 * Memory Collection operations (Create, Get Many, Rename, Delete) and the collection picker
 * (searchCollections) against the emulator, through n8n's real execution machinery.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor, fromList } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { clearMemories, useEmulator } from '../../infra/useEmulator';

const DEFAULT_COLLECTION = 1;
let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => clearMemories(emu));

const collectionRequests = () =>
	emu.requests.filter((r) => r.path.startsWith('/memory-collections'));

function collection(operation: string, extra: INodeParameters = {}): INodeParameters {
	return { resource: 'memoryCollection', operation, ...extra };
}

let nextSeedId = 5000;
/** Collections put straight into the emulator's state, in id order. */
function seedCollections(count: number, prefix = 'seeded'): number[] {
	const ids: number[] = [];
	for (let i = 0; i < count; i++) {
		const id = nextSeedId++;
		emu.state.collections.set(id, {
			id,
			user_id: 7,
			name: `${prefix}-${id}`,
			display_name: `${prefix} ${id}`,
		});
		ids.push(id);
	}
	return ids;
}

async function run(parameters: INodeParameters) {
	return await runNode({ parameters, credentials: credentialsFor(emu) });
}

describe('Memory Collection → Create', () => {
	it('creates a collection with POST /memory-collections {name} and returns it', async () => {
		const { outputs, error } = await run(collection('create', { name: ' Customers ' }));

		expect(error).toBeUndefined();
		const [request] = collectionRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/memory-collections', status: 201 });
		expect(request.body).toEqual({ name: 'Customers' });
		const created = outputs[0][0].json;
		expect(created).toEqual({ id: expect.any(Number), user_id: 7, name: 'Customers' });
		expect(emu.state.collections.get(created.id as number)?.name).toBe('Customers');
	});

	it('refuses an empty name, sending nothing', async () => {
		const { error } = await run(collection('create', { name: '={{ "  " }}' }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The collection name is empty (item 1)');
		expect(emu.requests).toHaveLength(0);
	});
});

describe('Memory Collection → Get Many', () => {
	it('Return All follows every page at per_page 50, default collection included', async () => {
		const ids = seedCollections(120);
		const { outputs, error } = await run(collection('getAll', { returnAll: true }));

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual([DEFAULT_COLLECTION, ...ids]);
		expect(collectionRequests().map((r) => r.query)).toEqual(
			[1, 2, 3].map((page) => ({ page: String(page), per_page: '50' })),
		);
		expect(outputs[0][0].json).toEqual({
			id: DEFAULT_COLLECTION,
			user_id: 7,
			name: 'default',
			display_name: 'Default',
		});
	});

	it('Limit 7 asks for one page of 7', async () => {
		seedCollections(20);
		const { outputs } = await run(collection('getAll', { returnAll: false, limit: 7 }));

		expect(outputs[0]).toHaveLength(7);
		expect(collectionRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '7' }]);
	});

	it('passes the search text to the platform', async () => {
		seedCollections(3, 'alpha');
		const beta = seedCollections(2, 'beta');
		const { outputs } = await run(
			collection('getAll', { returnAll: true, filters: { search: 'beta' } }),
		);

		expect(outputs[0].map((i) => i.json.id)).toEqual(beta);
		expect(collectionRequests()[0].query).toEqual({ search: 'beta', page: '1', per_page: '50' });
	});
});

describe('Memory Collection → Rename', () => {
	it('renames with PUT {name} and returns the collection', async () => {
		const [id] = seedCollections(1);
		const { outputs, error } = await run(
			collection('rename', { collectionId: fromList(id), name: 'Renamed' }),
		);

		expect(error).toBeUndefined();
		expect(collectionRequests()).toEqual([
			expect.objectContaining({
				method: 'PUT',
				path: `/memory-collections/${id}`,
				body: { name: 'Renamed' },
				status: 200,
			}),
		]);
		expect(outputs[0][0].json).toEqual({ id, user_id: 7, name: 'Renamed' });
		expect(emu.state.collections.get(id)?.name).toBe('Renamed');
	});

	it('says in plain words that the default collection cannot be renamed', async () => {
		const { error } = await run(
			collection('rename', { collectionId: byId(DEFAULT_COLLECTION), name: 'other' }),
		);

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The default memory collection cannot be renamed');
		expect(emu.state.collections.get(DEFAULT_COLLECTION)?.name).toBe('default');
	});

	it('says in plain words that an unknown collection was not found', async () => {
		const { error } = await run(collection('rename', { collectionId: byId(424242), name: 'x' }));

		expect(error!.message).toBe('The platform could not find memory collection 424242');
		expect((error as NodeApiError).description).toContain('Collection not found');
	});
});

describe('Memory Collection → Delete', () => {
	it('deletes the collection and, with it, its memories', async () => {
		const [id, other] = seedCollections(2);
		emu.state.memories.set(90, {
			id: 90,
			user_id: 7,
			collection_id: id,
			memory: 'goes',
			credits: 0,
		});
		emu.state.memories.set(91, {
			id: 91,
			user_id: 7,
			collection_id: other,
			memory: 'stays',
			credits: 0,
		});
		const { outputs, error } = await run(collection('delete', { collectionId: fromList(id) }));

		expect(error).toBeUndefined();
		expect(collectionRequests()).toEqual([
			expect.objectContaining({ method: 'DELETE', path: `/memory-collections/${id}`, status: 200 }),
		]);
		expect(outputs[0][0].json).toEqual({
			id,
			deleted: true,
			message: 'Collection deleted successfully',
		});
		expect(emu.state.collections.has(id)).toBe(false);
		expect([...emu.state.memories.keys()]).toEqual([91]);
	});

	it('explains the 403 for the default collection in plain words, and deletes nothing', async () => {
		emu.state.memories.set(92, {
			id: 92,
			user_id: 7,
			collection_id: DEFAULT_COLLECTION,
			memory: 'kept',
			credits: 0,
		});
		const { error } = await run(collection('delete', { collectionId: byId(DEFAULT_COLLECTION) }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The default memory collection cannot be deleted');
		expect((error as NodeApiError).description).toBe(
			'Every account keeps its "default" collection. Pick another collection to delete. The platform said: Default collection cannot be deleted',
		);
		expect((error as NodeApiError).httpCode).toBe('403');
		// Asked once (a 403 is not retried), refused; the collection and its memory are still there.
		expect(collectionRequests()).toEqual([
			expect.objectContaining({ method: 'DELETE', status: 403 }),
		]);
		expect(emu.state.collections.has(DEFAULT_COLLECTION)).toBe(true);
		expect(emu.state.memories.has(92)).toBe(true);
	});

	it('refuses a collection ID that is not a number, sending nothing', async () => {
		const { error } = await run(collection('delete', { collectionId: byId('={{ "default" }}') }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The collection "default" is not a valid ID (item 1)');
		expect((error as NodeOperationError).description).toBe(
			'Pick the collection from the list, or give its numeric ID.',
		);
		expect(emu.requests).toHaveLength(0);
	});
});

describe('collection picker (searchCollections)', () => {
	const search = async (filter?: string, paginationToken?: string) =>
		await listSearch('searchCollections', {
			parameters: collection('delete'),
			credentials: credentialsFor(emu),
			path: 'parameters.collectionId',
			filter,
			paginationToken,
		});

	it('lists collections by display name, 50 a page, with a token for the next page', async () => {
		const ids = seedCollections(60);
		const first = await search();

		expect(first.results).toHaveLength(50);
		expect(first.results[0]).toEqual({ name: 'Default', value: '1', description: 'Name: default' });
		expect(first.results[1]).toEqual({
			name: `seeded ${ids[0]}`,
			value: String(ids[0]),
			description: `Name: seeded-${ids[0]}`,
		});
		expect(first.paginationToken).toBe('2');
		const second = await search(undefined, first.paginationToken);
		expect(second.results.map((r) => r.value)).toEqual(ids.slice(49).map(String));
		expect(second.paginationToken).toBeUndefined();
		expect(collectionRequests().map((r) => r.query)).toEqual([
			{ page: '1', per_page: '50' },
			{ page: '2', per_page: '50' },
		]);
	});

	it('lets the platform search by the typed text', async () => {
		seedCollections(2, 'alpha');
		const [beta] = seedCollections(1, 'beta');
		const { results } = await search('beta');

		expect(results.map((r) => r.value)).toEqual([String(beta)]);
		expect(collectionRequests()[0].query).toEqual({ page: '1', per_page: '50', search: 'beta' });
	});
});
