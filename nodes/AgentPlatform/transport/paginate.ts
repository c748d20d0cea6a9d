import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest, PlatformContext } from './types';
import { credentialsOf } from './credentials';
import { asNodeError } from './errors';
import { runPool } from './pool';
import { apiRequest } from './request';

/**
 * The five list envelopes of the API, by where the items sit:
 * `data` (agents, webhooks: Laravel with `last_page`; resources: `meta.last_page`; files: bare `data`),
 * `memories` and `collections` (with `meta.last_page`), `items` (workspace usage, with `has_more`).
 */
export type ItemsKey = 'data' | 'memories' | 'collections' | 'items';

export interface ListOptions {
	/** n8n's "Return All": every page. Otherwise at most `limit` items. */
	returnAll: boolean;
	limit?: number;
	/** The largest per_page asked of the endpoint (the platform may give fewer: see pageSizes). */
	maxPerPage: number;
	itemsKey?: ItemsKey;
}

/** Where the last page is, when the envelope says it: `last_page` or `meta.last_page`. */
export function lastPageOf(body: IDataObject): number | undefined {
	const meta = body.meta as IDataObject | undefined;
	const value = Number(body.last_page ?? meta?.last_page);
	return Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** Whether a page follows, where the envelope says it with `has_more` (workspace usage). */
export function hasMoreOf(body: IDataObject): boolean | undefined {
	return typeof body.has_more === 'boolean' ? body.has_more : undefined;
}

/** The items of one page, whatever the envelope. */
export function itemsOf(body: unknown, itemsKey: ItemsKey): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const items = (body as IDataObject | undefined)?.[itemsKey];
	return Array.isArray(items) ? (items as IDataObject[]) : [];
}

/** The page size the API documents where it documents no maximum (agents, webhooks, resources). */
export const DOCUMENTED_PER_PAGE = 15;

/**
 * What each list endpoint was seen to give, per Base URL and path, for the n8n process: the
 * envelope's `per_page` (Laravel answers with the page size it used) when it is below what was
 * asked, or the documented default after a 422 that refused a larger per_page.
 */
const pageSizes = new Map<string, number>();

/** The page size the envelope says the platform used: `per_page` or `meta.per_page`. */
export function perPageOf(body: IDataObject): number | undefined {
	const meta = body.meta as IDataObject | undefined;
	const value = Number(body.per_page ?? meta?.per_page);
	return Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** A 422 that names per_page: the endpoint validates a maximum below what was asked. */
function refusedPerPage(error: unknown): boolean {
	const { httpCode, description, message, errorResponse } = (error ?? {}) as {
		httpCode?: unknown;
		description?: unknown;
		message?: unknown;
		errorResponse?: unknown;
	};
	if (httpCode !== '422') return false;
	return /per[_ ]page/i.test(
		`${String(message)} ${String(description)} ${JSON.stringify(errorResponse ?? {})}`,
	);
}

/** How many pages of one list wait for the pace at once (it decides when each is sent). */
export const PAGING = { concurrency: 32 };

/**
 * The one paging helper. Where the envelope says how many pages there are (`last_page`), the
 * first page tells it and the pages still needed are then fetched concurrently, at most
 * PAGING.concurrency at a time, each sent when the credential's pace allows (see pace/); the
 * items keep the platform's order and Limit is honoured. Where it does not (files), pages are
 * fetched one after another up to the first short page: the platform keeps at most 30 files, one
 * page of 100, so probing ahead would only spend requests. Where it says `has_more`, pages are
 * fetched one after another while it is true. Asks for the largest page the endpoint may honour,
 * and keeps what the platform gave (pageSizes).
 */
export async function apiRequestAllItems(
	ctx: PlatformContext,
	request: ApiRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	const itemsKey = options.itemsKey ?? 'data';
	const wanted = options.returnAll ? Number.POSITIVE_INFINITY : Math.max(0, options.limit ?? 50);
	if (wanted === 0) return [];
	const endpoint = `${(await credentialsOf(ctx)).baseUrl} ${request.path}`;
	let perPage = Math.max(1, Math.min(pageSizes.get(endpoint) ?? options.maxPerPage, wanted));
	const fetchPage = async (page: number) =>
		await apiRequest(ctx, {
			...request,
			method: 'GET',
			qs: { ...(request.qs ?? {}), page, per_page: perPage },
		});

	let first: unknown;
	try {
		first = await fetchPage(1);
	} catch (error) {
		// One refused request per endpoint and process, then the documented size is asked.
		if (perPage <= DOCUMENTED_PER_PAGE || !refusedPerPage(error))
			throw asNodeError(ctx.getNode(), error, request.itemIndex);
		pageSizes.set(endpoint, DOCUMENTED_PER_PAGE);
		perPage = DOCUMENTED_PER_PAGE;
		first = await fetchPage(1);
	}
	// The following pages ask for the size the platform said it used, and so does the next list.
	const given = perPageOf((first ?? {}) as IDataObject);
	if (given !== undefined && given < perPage) {
		pageSizes.set(endpoint, given);
		perPage = given;
	}
	const results = itemsOf(first, itemsKey);
	if (results.length >= wanted) return results.slice(0, wanted);
	if (hasMoreOf((first ?? {}) as IDataObject) !== undefined)
		return await followHasMore(first as IDataObject, results, wanted, itemsKey, fetchPage);
	const lastPage = lastPageOf((first ?? {}) as IDataObject);

	if (lastPage === undefined) {
		for (let page = 2, items = results; items.length >= perPage; page++) {
			items = itemsOf(await fetchPage(page), itemsKey);
			results.push(...items);
			if (results.length >= wanted) return results.slice(0, wanted);
		}
		return results;
	}

	// An empty first page ends the list, whatever last_page says. The platform's page size is what
	// its envelope says, or else what page 1 holds: it may page smaller than the per_page asked for.
	if (results.length === 0) return results;
	const pageSize = given ?? results.length;
	let pageCount = Math.min(lastPage, Math.ceil(wanted / pageSize));
	const pages: IDataObject[][] = [results];
	// After a failure no further page is taken; the requests under way end first.
	const failure = await runPool(
		() => pageCount - 1,
		PAGING.concurrency,
		async (index) => {
			const page = index + 2;
			const items = itemsOf(await fetchPage(page), itemsKey);
			pages[page - 1] = items;
			// A short page is the last one, whatever last_page said: no page after it is taken.
			if (items.length < pageSize) pageCount = Math.min(pageCount, page);
		},
	);
	if (failure !== undefined && failure.index + 2 <= pageCount) throw failure.error;
	const all = pages.slice(0, pageCount).flat();
	return all.length > wanted ? all.slice(0, wanted) : all;
}

/**
 * The pages after the first of a list that says `has_more`, one after another while it is true
 * (an empty page ends it too). The list is newest first: a record that arrives while it is read
 * pushes older ones onto the next page, so a record seen on an earlier page (same `id`) is kept once.
 */
async function followHasMore(
	first: IDataObject,
	results: IDataObject[],
	wanted: number,
	itemsKey: ItemsKey,
	fetchPage: (page: number) => Promise<unknown>,
): Promise<IDataObject[]> {
	const seen = new Set(results.map((item) => item.id).filter((id) => id !== undefined));
	let body = first;
	for (let page = 2; hasMoreOf(body) === true && results.length < wanted; page++) {
		body = ((await fetchPage(page)) ?? {}) as IDataObject;
		const items = itemsOf(body, itemsKey);
		if (items.length === 0) break;
		for (const item of items) {
			if (item.id !== undefined && seen.has(item.id)) continue;
			if (item.id !== undefined) seen.add(item.id);
			results.push(item);
		}
	}
	return results.slice(0, wanted);
}
