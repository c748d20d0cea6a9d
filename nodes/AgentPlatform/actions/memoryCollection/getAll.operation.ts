import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS, readListQuery } from '../../helpers/records/lists';
import { filtersProperty, returnAllLimitProperties } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllLimitProperties,
	filtersProperty('collections', [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. customers',
			description: 'Only collections whose name contains this text',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memoryCollection'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readListQuery(this, itemIndex, 'filters', ['search']);
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/memory-collections', qs },
		{ maxPerPage: PAGE_LIMITS.collections, itemsKey: 'collections' },
	);
}
