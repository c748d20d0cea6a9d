import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport/paginate';
import { limitProperty, returnAllProperty } from '../common.descriptions';

/** GET /files accepts per_page 1 to 100 (spec: Limits). */
export const FILES_MAX_PER_PAGE = 100;

const properties: INodeProperties[] = [
	returnAllProperty,
	limitProperty(),
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
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (options.order) qs.order = options.order;

	const files = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/files', qs, itemIndex },
		{ returnAll, limit, maxPerPage: FILES_MAX_PER_PAGE, itemsKey: 'data' },
	);
	return this.helpers.returnJsonArray(files);
}
