import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest, PlatformContext } from './request';
import { runPool } from './pool';
import { apiRequest } from './request';

/**
 * The four list envelopes of the API, by where the items sit:
 * `data` (agents, webhooks: Laravel with `last_page`; resources: `meta.last_page`; files: bare `data`),
 * `memories` and `collections` (with `meta.last_page`).
 */
export type ItemsKey = 'data' | 'memories' | 'collections';

export interface ListOptions {
	/** n8n's "Return All": every page. Otherwise at most `limit` items. */
	returnAll: boolean;
	limit?: number;
	/** The largest per_page the endpoint accepts. */
	maxPerPage: number;
	itemsKey?: ItemsKey;
}

/** Where the last page is, when the envelope says it: `last_page` or `meta.last_page`. */
export function lastPageOf(body: IDataObject): number | undefined {
	const meta = body.meta as IDataObject | undefined;
	const value = Number(body.last_page ?? meta?.last_page);
	return Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** The items of one page, whatever the envelope. */
export function itemsOf(body: unknown, itemsKey: ItemsKey): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const items = (body as IDataObject | undefined)?.[itemsKey];
	return Array.isArray(items) ? (items as IDataObject[]) : [];
}

/** How many pages of one list wait for the pace at once (it decides when each is sent). */
export const PAGING = { concurrency: 32 };

/**
 * The one paging helper. Where the envelope says how many pages there are (`last_page`), the
 * first page tells it and the pages still needed are then fetched concurrently, at most
 * PAGING.concurrency at a time, each sent when the credential's pace allows (see pace.ts); the
 * items keep the platform's order and Limit is honoured. Where it does not (files), pages are
 * fetched one after another up to the first short page: the platform keeps at most 30 files, one
 * page of 100, so probing ahead would only spend requests. Never asks for more per_page than the
 * endpoint allows.
 */
export async function apiRequestAllItems(
	this: PlatformContext,
	request: ApiRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	const itemsKey = options.itemsKey ?? 'data';
	const wanted = options.returnAll ? Number.POSITIVE_INFINITY : Math.max(0, options.limit ?? 50);
	if (wanted === 0) return [];
	const perPage = Math.max(1, Math.min(options.maxPerPage, wanted));
	const fetchPage = async (page: number) =>
		await apiRequest.call(this, {
			...request,
			method: 'GET',
			qs: { ...(request.qs ?? {}), page, per_page: perPage },
		});

	const first = await fetchPage(1);
	const results = itemsOf(first, itemsKey);
	if (results.length >= wanted) return results.slice(0, wanted);
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
	// page 1 holds: it may page smaller than the per_page asked for.
	if (results.length === 0) return results;
	const pageSize = results.length;
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
