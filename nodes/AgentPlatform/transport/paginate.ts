import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest, PlatformContext } from './request';
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
	return Number.isFinite(value) && value >= 1 ? value : undefined;
}

/** The items of one page, whatever the envelope. */
export function itemsOf(body: unknown, itemsKey: ItemsKey): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const items = (body as IDataObject | undefined)?.[itemsKey];
	return Array.isArray(items) ? (items as IDataObject[]) : [];
}

/**
 * The one paging helper. Follows `last_page` where the envelope has one, and otherwise stops
 * at the first short page (files). Never asks for more per_page than the endpoint allows.
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
	const results: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const body = await apiRequest.call(this, {
			...request,
			method: 'GET',
			qs: { ...(request.qs ?? {}), page, per_page: perPage },
		});
		const items = itemsOf(body, itemsKey);
		results.push(...items);
		if (results.length >= wanted) return results.slice(0, wanted);
		const lastPage = lastPageOf((body ?? {}) as IDataObject);
		const more = lastPage !== undefined ? page < lastPage : items.length >= perPage;
		if (!more || items.length === 0) return results;
	}
}
