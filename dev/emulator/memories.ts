/**
 * Memories: POST /memories, GET /memories (page, per_page 1..50, collection_id),
 * PATCH /memories/{id}, DELETE /memories/{id}.
 */
import { HttpError, bodyObject, json, parseId, slicePage, strictInt, validation } from './http';
import type { Ctx, Reply } from './http';
import { DEFAULT_COLLECTION_ID, USER_ID } from './types';
import type { StoredMemory } from './types';

export const MAX_MEMORY_CHARS = 32000;

export function memoryJson(m: StoredMemory) {
	return {
		id: m.id,
		user_id: m.user_id,
		collection_id: m.collection_id,
		memory: m.memory,
		credits: m.credits,
	};
}

function checkMemory(value: unknown): string {
	if (value === undefined || value === null || value === '')
		throw new HttpError(422, { message: 'The memory field is required.' });
	if (typeof value !== 'string')
		throw new HttpError(422, { message: 'The memory field must be a string.' });
	if ([...value].length > MAX_MEMORY_CHARS) {
		throw new HttpError(422, {
			message: `The memory field must not be greater than ${MAX_MEMORY_CHARS} characters.`,
		});
	}
	return value;
}

function checkCollection(ctx: Ctx, value: unknown): number | null {
	if (value === undefined || value === null || value === '') return null;
	const id = typeof value === 'number' ? value : typeof value === 'string' ? parseId(value) : null;
	if (id === null || !ctx.core.state.collections.has(id))
		throw new HttpError(422, { message: 'The selected collection id is invalid.' });
	return id;
}

export function createMemory(ctx: Ctx): Reply {
	const body = bodyObject(ctx);
	const memory = checkMemory(body.memory);
	const collectionId = checkCollection(ctx, body.collection_id) ?? DEFAULT_COLLECTION_ID;
	const m: StoredMemory = {
		id: ctx.core.nextId('memory'),
		user_id: USER_ID,
		collection_id: collectionId,
		memory,
		credits: 0,
	};
	ctx.core.state.memories.set(m.id, m);
	return json(201, { message: 'Memory created successfully', memory: memoryJson(m) });
}

export function listMemories(ctx: Ctx): Reply {
	const page = strictInt(ctx.query, 'page', 1, 1);
	const perPage = strictInt(ctx.query, 'per_page', 10, 1, 50);
	const raw = ctx.query.collection_id;
	let collectionId: number | null = null;
	if (raw !== undefined && raw !== '') {
		collectionId = parseId(raw);
		if (collectionId === null)
			throw validation('collection_id', 'The collection id field must be an integer.');
	}
	const items = [...ctx.core.state.memories.values()]
		.filter(
			(m) => m.user_id === USER_ID && (collectionId === null || m.collection_id === collectionId),
		)
		.sort((a, b) => a.id - b.id);
	const { data, lastPage } = slicePage(items, page, perPage);
	return json(200, {
		message: 'Memories retrieved successfully',
		memories: data.map(memoryJson),
		meta: { current_page: page, last_page: lastPage, total: items.length },
	});
}

function findMemory(ctx: Ctx): StoredMemory {
	const id = parseId(ctx.params.memoryId);
	const m = id === null ? undefined : ctx.core.state.memories.get(id);
	if (!m) throw new HttpError(404, { message: 'Memory not found!' });
	return m;
}

export function updateMemory(ctx: Ctx): Reply {
	const m = findMemory(ctx);
	const body = bodyObject(ctx);
	const memory = checkMemory(body.memory);
	const collectionId = checkCollection(ctx, body.collection_id);
	m.memory = memory;
	if (collectionId !== null) m.collection_id = collectionId;
	const c = ctx.core.state.collections.get(m.collection_id);
	return json(200, {
		message: 'Memory updated successfully',
		memory: {
			...memoryJson(m),
			collection: c ? { id: c.id, user_id: c.user_id, name: c.name } : null,
		},
	});
}

export function deleteMemory(ctx: Ctx): Reply {
	const m = findMemory(ctx);
	ctx.core.state.memories.delete(m.id);
	return json(200, { message: 'Memory deleted successfully' });
}
