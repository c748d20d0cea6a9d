import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { platformNotice } from '../common.descriptions';
import { collectionLocator } from './collection.descriptions';

const properties: INodeProperties[] = [
	platformNotice(
		'deleteMemoriesNotice',
		'Deleting a collection deletes every memory in it, for good. The "default" collection cannot be deleted.',
	),
	collectionLocator({
		name: 'collectionId',
		required: true,
		description:
			'The collection to delete. Every memory in it is deleted with it, for good. The "default" collection cannot be deleted.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memoryCollection'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const collectionId = numericIdParameter(this, 'collectionId', 'collection', itemIndex);
	const body = (await apiRequest.call(this, {
		method: 'DELETE',
		path: `/memory-collections/${collectionId}`,
		resource: `memory collection ${collectionId}`,
		itemIndex,
	})) as IDataObject | undefined;
	return this.helpers.returnJsonArray({
		id: Number(collectionId),
		deleted: true,
		...(typeof body?.message === 'string' ? { message: body.message } : {}),
	});
}
