import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { PAGE_LIMITS } from '../helpers/records/lists';
import { replyKey, freshOrKept } from '../helpers/lookups/keptReplies';
import { itemsOf, lastPageOf } from '../transport/paginate';
import { apiRequest } from '../transport/request';

/**
 * A picker's page: the platform's, or, while its rate limit holds the key, the first page of the
 * same search as this process last saw it (keptReplies.ts). n8n shows only an entry's name, so
 * one that is not fresh starts with an entry saying how old it is, and ends there (a next page
 * would be refused too). Later pages and searches not seen before say that the key is held.
 */
async function pickerPage(
	ctx: ILoadOptionsFunctions,
	lookup: string,
	page: number,
	read: () => Promise<INodeListSearchResult>,
): Promise<INodeListSearchResult> {
	if (page > 1) return await read();
	const { value, note } = await freshOrKept(ctx, await replyKey(ctx, lookup), read);
	if (!note) return value;
	// its value is empty: picking it picks nothing
	return { results: [{ name: note, value: '' }, ...value.results] };
}

/** The searchable agent list of every agent picker: one page at a time, searched by the platform. */
export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await agentsOfType(this, filter, paginationToken);
}

/** The chat agents only: the agents whose chat-completions endpoint answers (the chat model's picker). */
export async function searchChatAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await agentsOfType(this, filter, paginationToken, 'chat');
}

async function agentsOfType(
	ctx: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
	type?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const qs: IDataObject = { page, per_page: PAGE_LIMITS.agents };
	if (filter) qs.q = filter;
	if (type) qs.type = type;
	return await pickerPage(ctx, `GET /agents ${JSON.stringify(qs)}`, page, async () => {
		const body = (await apiRequest(ctx, {
			method: 'GET',
			path: '/agents',
			qs,
		})) as IDataObject;
		return agentsPage(body, page);
	});
}

function agentsPage(body: IDataObject, page: number): INodeListSearchResult {
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
	const qs: IDataObject = { page, per_page: PAGE_LIMITS.files, order: 'desc' };
	const wanted = filter?.trim().toLowerCase() ?? '';
	// the page is kept whole (the platform's answer), and searched here each time
	const found = await pickerPage(this, `GET /files ${JSON.stringify(qs)}`, page, async () => {
		const files = itemsOf(await apiRequest(this, { method: 'GET', path: '/files', qs }), 'data');
		return {
			results: files.map((file) => ({
				name: `${String(file.filename ?? `File ${file.id}`)} (${String(file.id)})`,
				value: String(file.id),
				description: [file.status, file.created_at].filter(Boolean).join(' · ') || undefined,
			})),
			paginationToken: files.length >= PAGE_LIMITS.files ? String(page + 1) : undefined,
		};
	});
	return {
		...found,
		// an entry's name is the file's name and its ID; the note on an old page (no value) stays
		results: found.results.filter(
			(file) =>
				!wanted || !file.value || file.name.toLowerCase().includes(wanted) || file.value === wanted,
		),
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
	return await pickerPage(this, `GET /memory-collections ${JSON.stringify(qs)}`, page, async () => {
		const body = (await apiRequest(this, {
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
	});
}
