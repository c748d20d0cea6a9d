import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport/paginate';
import { limitProperty, returnAllProperty } from '../common.descriptions';
import { COLLECTIONS_MAX_PER_PAGE } from './collection.descriptions';

const properties: INodeProperties[] = [
	returnAllProperty,
	limitProperty(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only collections that match all of these',
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. customers',
				description: 'Only collections whose name contains this text',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memoryCollection'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.search) qs.search = filters.search;

	const collections = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/memory-collections', qs, itemIndex },
		{ returnAll, limit, maxPerPage: COLLECTIONS_MAX_PER_PAGE, itemsKey: 'collections' },
	);
	return this.helpers.returnJsonArray(collections);
}
