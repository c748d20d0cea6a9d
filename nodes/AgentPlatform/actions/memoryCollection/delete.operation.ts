import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { COLLECTION, requestRecord } from '../../helpers/records/records';
import { platformNotice } from '../common.descriptions';
import { collectionLocator } from './collection.descriptions';
import { deletedItem } from '../../helpers/records/deleted';
import { explainDefaultCollection } from './defaultCollection';

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id, answer } = await requestRecord(this, itemIndex, COLLECTION, {
		method: 'DELETE',
	}).catch((error: unknown) => {
		throw explainDefaultCollection(this, error, 'deleted', itemIndex);
	});
	return this.helpers.returnJsonArray(deletedItem(id, answer));
}
