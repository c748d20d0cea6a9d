/**
 * Resources (templates): GET /resources (q, type, page, per_page default 15, capped at 100)
 * answering {data:[{id,title,description,created_at,updated_at,type}], meta:{...}}.
 */
import { json, lenientPositiveInt, listPerPage, matchesQ, slicePage } from './http';
import type { Ctx, Reply } from './http';
import type { StoredResource } from './types';

export function resourceJson(r: StoredResource) {
	return {
		id: r.id,
		title: r.title,
		description: r.description,
		created_at: r.created_at,
		updated_at: r.updated_at,
		type: r.type,
	};
}

export function listResources(ctx: Ctx): Reply {
	const { q, type } = ctx.query;
	const page = lenientPositiveInt(ctx.query.page, 1);
	const perPage = listPerPage(ctx);
	const items = [...ctx.core.state.resources.values()]
		.filter((r) => (type ? r.type === type : true))
		.filter((r) => matchesQ(q, r.title, r.description, r.long_description))
		.sort((a, b) => Number(a.id) - Number(b.id));
	const { data, lastPage, from, to } = slicePage(items, page, perPage);
	return json(200, {
		data: data.map(resourceJson),
		meta: {
			current_page: page,
			from,
			last_page: lastPage,
			per_page: perPage,
			to,
			total: items.length,
		},
	});
}
