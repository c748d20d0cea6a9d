import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport/paginate';
import { limitProperty, returnAllProperty } from '../common.descriptions';
import { collectionLocator, optionalCollectionId } from '../memoryCollection/collection.descriptions';
import { MEMORIES_MAX_PER_PAGE } from './memory.descriptions';

const properties: INodeProperties[] = [
	collectionLocator({
		name: 'collectionId',
		required: false,
		description: 'Only memories of this collection. Leave empty for the memories of every collection.',
	}),
	returnAllProperty,
	limitProperty(),
];

export const description = updateDisplayOptions({ show: { resource: ['memory'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const collectionId = optionalCollectionId(this, 'collectionId', itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const qs: IDataObject = collectionId ? { collection_id: collectionId } : {};

	const memories = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/memories', qs, itemIndex },
		{ returnAll, limit, maxPerPage: MEMORIES_MAX_PER_PAGE, itemsKey: 'memories' },
	);
	return this.helpers.returnJsonArray(memories);
}
