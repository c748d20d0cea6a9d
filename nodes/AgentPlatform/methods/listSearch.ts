import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { PAGE_LIMITS } from '../helpers/lists';
import { itemsOf, lastPageOf } from '../transport/paginate';
import { apiRequest } from '../transport/request';

/** The searchable agent list of every agent picker: one page at a time, searched by the platform. */
export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const qs: IDataObject = { page, per_page: PAGE_LIMITS.agents };
	if (filter) qs.q = filter;
	const body = (await apiRequest.call(this, { method: 'GET', path: '/agents', qs })) as IDataObject;
	const agents = (Array.isArray(body.data) ? body.data : []) as IDataObject[];
	const lastPage = Number(body.last_page ?? page);
	return {
		results: agents.map((agent) => {
			const description =
				typeof agent.description === 'string' && agent.description.trim()
					? agent.description.trim()
					: undefined;
			const title = `${String(agent.title ?? `Agent ${agent.id}`)}${agent.type ? ` (${String(agent.type)})` : ''}`;
			// n8n (1.x and 2.x) shows only an entry's name, in the list and once picked: the agent's
			// own description goes into the name, so that it is seen; `description` is kept as well.
			return {
				name: description ? `${title} — ${description}` : title,
				value: String(agent.id),
				description,
			};
		}),
		paginationToken: page < lastPage ? String(page + 1) : undefined,
	};
}

/**
 * The searchable file list of every file picker, newest first. GET /files has no search
 * parameter, so each page (the endpoint's largest, 100) is filtered here by name or ID.
 */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const body = await apiRequest.call(this, {
		method: 'GET',
		path: '/files',
		qs: { page, per_page: PAGE_LIMITS.files, order: 'desc' },
	});
	const files = itemsOf(body, 'data');
	const wanted = filter?.trim().toLowerCase() ?? '';
	return {
		results: files
			.filter(
				(file) =>
					!wanted ||
					String(file.filename ?? '')
						.toLowerCase()
						.includes(wanted) ||
					String(file.id) === wanted,
			)
			.map((file) => ({
				name: `${String(file.filename ?? `File ${file.id}`)} (${String(file.id)})`,
				value: String(file.id),
				description: [file.status, file.created_at].filter(Boolean).join(' · ') || undefined,
			})),
		paginationToken: files.length >= PAGE_LIMITS.files ? String(page + 1) : undefined,
	};
}

/** The searchable collection list of every collection picker, searched by the platform. */
export async function searchCollections(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const qs: IDataObject = { page, per_page: PAGE_LIMITS.collections };
	if (filter) qs.search = filter;
	const body = (await apiRequest.call(this, {
		method: 'GET',
		path: '/memory-collections',
		qs,
	})) as IDataObject;
	const collections = itemsOf(body, 'collections');
	const lastPage = lastPageOf(body) ?? page;
	return {
		results: collections.map((collection) => {
			const name = String(collection.name ?? '');
			const shown = String(collection.display_name || name || `Collection ${collection.id}`);
			return {
				name: shown,
				value: String(collection.id),
				description: name && name !== shown ? `Name: ${name}` : undefined,
			};
		}),
		paginationToken: page < lastPage ? String(page + 1) : undefined,
	};
}
