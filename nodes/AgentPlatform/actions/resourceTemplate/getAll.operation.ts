import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport/paginate';
import { limitProperty, returnAllProperty } from '../common.descriptions';

// The spec gives no maximum per_page for resources (default 15); 50 is what the agent list uses too.
export const RESOURCES_MAX_PER_PAGE = 50;

const properties: INodeProperties[] = [
	returnAllProperty,
	limitProperty(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only templates that match all of these',
		options: [
			{
				displayName: 'Search',
				name: 'q',
				type: 'string',
				default: '',
				placeholder: 'e.g. onboarding',
				description: 'Only resource templates whose title or descriptions contain this text',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'string',
				default: '',
				placeholder: 'e.g. prompt',
				description: 'Only resource templates of this type, as the platform names it',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['resourceTemplate'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.q) qs.q = filters.q;
	if (filters.type) qs.type = String(filters.type).trim();

	const resources = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/resources', qs, itemIndex },
		{ returnAll, limit, maxPerPage: RESOURCES_MAX_PER_PAGE, itemsKey: 'data' },
	);
	return this.helpers.returnJsonArray(resources);
}
