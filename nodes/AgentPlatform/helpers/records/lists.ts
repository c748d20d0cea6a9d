import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ItemsKey } from '../../transport/paginate';
import { apiRequestAllItems } from '../../transport/paginate';
import type { ApiRequest } from '../../transport/types';

/**
 * The most items per page each list endpoint is asked for: every page is a request. Files (100),
 * memories and collections (50) are the spec's maxima, workspace usage (100) production's docs'.
 * For agents, webhooks, resources and agent responses the spec documents only the default, 15,
 * and no maximum: 100 is asked, and the paging helper reads the envelope's `per_page` to see what
 * the platform gave and keeps it for the process (falling back to 15 once if a larger page is
 * refused; transport/paginate.ts).
 */
export const PAGE_LIMITS = {
	agents: 100,
	webhooks: 100,
	resources: 100,
	files: 100,
	memories: 50,
	collections: 50,
	agentResponses: 100,
	usage: 100,
} as const;

/** Every Get Many: the item's Return All / Limit over the one paging helper, one output item per record. */
export async function getManyItems(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: ApiRequest,
	list: { maxPerPage: number; itemsKey?: ItemsKey },
): Promise<INodeExecutionData[]> {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? undefined : (ctx.getNodeParameter('limit', itemIndex) as number);
	const records = await apiRequestAllItems(
		ctx,
		{ ...request, itemIndex },
		{ returnAll, limit, ...list },
	);
	return ctx.helpers.returnJsonArray(records);
}

/** A list's query: the fields of its Filters (or Options) collection that the item sets, as given. */
export function readListQuery(
	ctx: IExecuteFunctions,
	itemIndex: number,
	collection: 'filters' | 'options',
	fields: string[],
): IDataObject {
	const values = ctx.getNodeParameter(collection, itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const field of fields) if (values[field]) qs[field] = values[field];
	return qs;
}
