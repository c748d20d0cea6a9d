import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS, readListQuery } from '../../helpers/records/lists';
import { newestOldestOptions, returnAllLimitProperties } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllLimitProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How to list the files',
		options: [
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'desc',
				description: 'Sort by upload time',
				options: newestOldestOptions,
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readListQuery(this, itemIndex, 'options', ['order']);
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/files', qs },
		{ maxPerPage: PAGE_LIMITS.files },
	);
}
