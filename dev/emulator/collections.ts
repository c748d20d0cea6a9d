/**
 * Memory collections: POST /memory-collections, GET /memory-collections (page, per_page 1..50,
 * search), PUT /memory-collections/{id}, DELETE /memory-collections/{id}. The `default`
 * collection always exists and cannot be deleted (nor renamed).
 */
import { HttpError, bodyObject, json, matchesQ, parseId, slicePage, strictInt } from './http';
import type { Ctx, Reply } from './http';
import { DEFAULT_COLLECTION_ID, USER_ID } from './types';
import type { StoredCollection } from './types';

export const MAX_NAME_CHARS = 255;

function shortJson(c: StoredCollection) {
	return { id: c.id, user_id: c.user_id, name: c.name };
}

function listJson(c: StoredCollection) {
	return { id: c.id, user_id: c.user_id, name: c.name, display_name: c.display_name };
}

function checkName(ctx: Ctx, value: unknown, exceptId?: number): string {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw new HttpError(422, {
			message: 'The name field is required.',
			errors: { name: ['The name field is required.'] },
		});
	}
	if (typeof value !== 'string') {
		throw new HttpError(422, {
			message: 'The name field must be a string.',
			errors: { name: ['The name field must be a string.'] },
		});
	}
	if (value.length > MAX_NAME_CHARS) {
		const msg = `The name field must not be greater than ${MAX_NAME_CHARS} characters.`;
		throw new HttpError(422, { message: msg, errors: { name: [msg] } });
	}
	const taken = [...ctx.core.state.collections.values()].some(
		(c) => c.name === value && c.id !== exceptId,
	);
	if (taken)
		throw new HttpError(422, {
			message: 'The name has already been taken.',
			errors: { name: ['The name has already been taken.'] },
		});
	return value;
}

function findCollection(ctx: Ctx): StoredCollection {
	const id = parseId(ctx.params.collectionId);
	const c = id === null ? undefined : ctx.core.state.collections.get(id);
	if (!c) throw new HttpError(404, { message: 'Collection not found' });
	return c;
}

export function createCollection(ctx: Ctx): Reply {
	const name = checkName(ctx, bodyObject(ctx).name);
	const c: StoredCollection = {
		id: ctx.core.nextId('collection'),
		user_id: USER_ID,
		name,
		display_name: name,
	};
	ctx.core.state.collections.set(c.id, c);
	return json(201, { message: 'Collection created successfully', collection: shortJson(c) });
}

export function listCollections(ctx: Ctx): Reply {
	const page = strictInt(ctx.query, 'page', 1, 1);
	const perPage = strictInt(ctx.query, 'per_page', 10, 1, 50);
	const search = ctx.query.search;
	const items = [...ctx.core.state.collections.values()]
		.filter((c) => c.user_id === USER_ID && matchesQ(search, c.name, c.display_name))
		.sort((a, b) => a.id - b.id);
	const { data, lastPage } = slicePage(items, page, perPage);
	return json(200, {
		message: 'Collections retrieved successfully',
		collections: data.map(listJson),
		meta: { current_page: page, last_page: lastPage, total: items.length },
	});
}

export function updateCollection(ctx: Ctx): Reply {
	const c = findCollection(ctx);
	const name = checkName(ctx, bodyObject(ctx).name, c.id);
	if (c.id === DEFAULT_COLLECTION_ID && name !== c.name) {
		throw new HttpError(403, { message: 'Default collection cannot be renamed' });
	}
	c.name = name;
	c.display_name = c.id === DEFAULT_COLLECTION_ID ? c.display_name : name;
	return json(200, { message: 'Collection updated successfully', collection: shortJson(c) });
}

export function deleteCollection(ctx: Ctx): Reply {
	const c = findCollection(ctx);
	if (c.id === DEFAULT_COLLECTION_ID)
		throw new HttpError(403, { message: 'Default collection cannot be deleted' });
	ctx.core.state.collections.delete(c.id);
	for (const m of [...ctx.core.state.memories.values()])
		if (m.collection_id === c.id) ctx.core.state.memories.delete(m.id);
	return json(200, { message: 'Collection deleted successfully' });
}
