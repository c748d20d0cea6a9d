/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: memories and memory collections.
 */
import { Json, call, emu, keys } from './shared';

describe('memories and collections', () => {
	it('creates, lists, updates and deletes memories with the exact messages', async () => {
		const created = await call('/memories', { body: { memory: 'x'.repeat(32000) } });
		expect(created.status).toBe(201);
		expect(created.json.message).toBe('Memory created successfully');
		expect(keys(created.json.memory)).toEqual([
			'collection_id',
			'credits',
			'id',
			'memory',
			'user_id',
		]);
		expect(created.json.memory).toMatchObject({ collection_id: 1, credits: 0 });

		let r = await call('/memories', { body: { memory: 'x'.repeat(32001) } });
		expect(r.status).toBe(422);
		expect(r.json).toEqual({
			message: 'The memory field must not be greater than 32000 characters.',
		});
		r = await call('/memories', { body: {} });
		expect(r.json).toEqual({ message: 'The memory field is required.' });
		expect((await call('/memories', { body: { memory: 'm', collection_id: 777 } })).status).toBe(
			422,
		);

		const list = await call('/memories?per_page=1');
		expect(keys(list.json)).toEqual(['memories', 'message', 'meta']);
		expect(list.json.message).toBe('Memories retrieved successfully');
		expect(keys(list.json.meta)).toEqual(['current_page', 'last_page', 'total']);
		expect(list.json.meta.last_page).toBe(list.json.meta.total);
		expect((await call('/memories?per_page=51')).status).toBe(422);
		expect((await call('/memories?per_page=0')).status).toBe(422);

		const coll = await call('/memory-collections', { body: { name: 'notes' } });
		const upd = await call(`/memories/${created.json.memory.id}`, {
			method: 'PATCH',
			body: { memory: 'short', collection_id: coll.json.collection.id },
		});
		expect(upd.json).toEqual({
			message: 'Memory updated successfully',
			memory: {
				id: created.json.memory.id,
				user_id: created.json.memory.user_id,
				collection_id: coll.json.collection.id,
				memory: 'short',
				credits: 0,
				collection: {
					id: coll.json.collection.id,
					user_id: created.json.memory.user_id,
					name: 'notes',
				},
			},
		});
		const filtered = await call(`/memories?collection_id=${coll.json.collection.id}`);
		expect(filtered.json.memories.map((m: Json) => m.id)).toEqual([created.json.memory.id]);

		expect(
			(await call('/memories/999999', { method: 'PATCH', body: { memory: 'x' } })).json,
		).toEqual({ message: 'Memory not found!' });
		expect((await call(`/memories/${created.json.memory.id}`, { method: 'DELETE' })).json).toEqual({
			message: 'Memory deleted successfully',
		});
		const gone = await call(`/memories/${created.json.memory.id}`, { method: 'DELETE' });
		expect(gone.status).toBe(404);
		expect(gone.json).toEqual({ message: 'Memory not found!' });
	});

	it('has an undeletable default collection; create, list, search, rename, delete', async () => {
		const list = await call('/memory-collections');
		expect(keys(list.json)).toEqual(['collections', 'message', 'meta']);
		expect(list.json.collections[0]).toEqual({
			id: 1,
			user_id: expect.any(Number),
			name: 'default',
			display_name: 'Default',
		});

		const c = await call('/memory-collections', { body: { name: 'Projects' } });
		expect(c.status).toBe(201);
		expect(keys(c.json)).toEqual(['collection', 'message']);
		expect(keys(c.json.collection)).toEqual(['id', 'name', 'user_id']);
		const id = c.json.collection.id;
		expect(
			(await call('/memory-collections?search=proj')).json.collections.map((x: Json) => x.id),
		).toEqual([id]);
		expect((await call('/memory-collections?per_page=51')).status).toBe(422);

		const put = await call(`/memory-collections/${id}`, {
			method: 'PUT',
			body: { name: 'Projects 2' },
		});
		expect(put.json.collection).toEqual({
			id,
			user_id: c.json.collection.user_id,
			name: 'Projects 2',
		});
		expect((await call(`/memory-collections/${id}`, { method: 'PUT', body: {} })).status).toBe(422);
		expect(
			(await call('/memory-collections/4242', { method: 'PUT', body: { name: 'x' } })).json,
		).toEqual({ message: 'Collection not found' });

		const m = await call('/memories', { body: { memory: 'in projects', collection_id: id } });
		const del = await call(`/memory-collections/${id}`, { method: 'DELETE' });
		expect(del.status).toBe(200);
		expect(keys(del.json)).toEqual(['message']);
		expect(emu.state.memories.has(m.json.memory.id)).toBe(false);
		const again = await call(`/memory-collections/${id}`, { method: 'DELETE' });
		expect(again.status).toBe(404);
		expect(again.json).toEqual({ message: 'Collection not found' });

		const def = await call('/memory-collections/1', { method: 'DELETE' });
		expect(def.status).toBe(403);
		expect(def.json).toEqual({ message: 'Default collection cannot be deleted' });
	});
});
