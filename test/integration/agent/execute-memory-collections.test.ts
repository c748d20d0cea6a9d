/**
 * Agent → Execute's Memory Collections option against the emulator: the collections picked from
 * the list or given by ID reach the run as memory_collections (recorded on the run and mentioned
 * in its output), the option's list is the searchable collection list, and a wrong ID fails
 * before any request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { DEFAULT_COLLECTION_ID } from '../../../dev/emulator/types';
import { byId, credentialsFor, fromList } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT } from '../../../dev/emulator';

let emu: PlatformEmulator;

useEmulator({ timeScale: 100, executionSeconds: 1, quiet: true }, (started) => (emu = started));

const chatSettings = () => emu.firstOptions(CHAT);

async function createCollection(name: string): Promise<number> {
	const { outputs, error } = await runNode({
		parameters: { resource: 'memoryCollection', operation: 'create', name },
		credentials: credentialsFor(emu),
	});
	expect(error).toBeUndefined();
	return Number(outputs[0][0].json.id);
}

const executeWith = (collections: INodeParameters[]): INodeParameters => ({
	resource: 'agent',
	operation: 'execute',
	agentId: byId(CHAT),
	message: 'What do you remember about our customers?',
	...chatSettings(),
	options: {
		memoryCollections: { collections: collections.map((collection) => ({ collection })) },
	},
});

describe('Agent → Execute: Memory Collections', () => {
	it('sends the picked collections and the run receives them', async () => {
		const customers = await createCollection('customers-run-test');
		const { outputs, error } = await runNode({
			parameters: executeWith([fromList(customers), byId(DEFAULT_COLLECTION_ID), byId(customers)]),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		const body = emu.requests.find((r) => r.method === 'POST' && r.path.endsWith('/execute'))!
			.body as IDataObject;
		expect(body.memory_collections).toEqual([customers, DEFAULT_COLLECTION_ID]);
		expect(emu.state.runs.get(Number(item.id))?.memoryCollections).toEqual([
			customers,
			DEFAULT_COLLECTION_ID,
		]);
		expect(String(item.output)).toContain(
			`memory collections: customers-run-test #${customers}, default #${DEFAULT_COLLECTION_ID}`,
		);
	});

	it('sends nothing when no collection is given', async () => {
		const { error } = await runNode({
			parameters: executeWith([]),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const body = emu.requests.find((r) => r.method === 'POST')!.body as IDataObject;
		expect(body).not.toHaveProperty('memory_collections');
	});

	it('the list to pick from is the searchable collection list', async () => {
		const { results } = await listSearch('searchCollections', {
			parameters: executeWith([]),
			credentials: credentialsFor(emu),
			filter: 'customers-run',
		});
		expect(results.map((r) => r.name)).toEqual(['customers-run-test']);
	});

	it('a collection ID that is not a number fails before any request, naming the item', async () => {
		const { error } = await runNode({
			parameters: executeWith([byId('abc')]),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The memory collection "abc" is not a valid ID (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('a collection the platform does not know is its 422, in plain words', async () => {
		const { error } = await runNode({
			parameters: executeWith([byId(987654)]),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toMatch(/memory_collections\.0/);
	});
});
