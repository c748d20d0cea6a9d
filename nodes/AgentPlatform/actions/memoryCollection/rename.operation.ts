import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readCollectionName } from '../../helpers/input/parameters';
import {
	COLLECTION,
	readRecordId,
	requestRecord,
	unwrapRecord,
} from '../../helpers/records/records';
import { explainDefaultCollection } from './defaultCollection';
import { collectionLocator, collectionNameProperty } from './collection.descriptions';

const properties: INodeProperties[] = [
	collectionLocator({
		name: 'collectionId',
		required: true,
		description: 'The collection to rename',
	}),
	collectionNameProperty({ displayName: 'New Name', description: 'The name the collection gets' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memoryCollection'], operation: ['rename'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = readRecordId(this, COLLECTION, itemIndex);
	const name = readCollectionName(this, itemIndex);
	const { answer } = await requestRecord(this, itemIndex, COLLECTION, {
		id,
		method: 'PUT',
		body: { name },
	}).catch((error: unknown) => {
		throw explainDefaultCollection(this, error, 'renamed', itemIndex);
	});
	return this.helpers.returnJsonArray(unwrapRecord(answer, 'collection'));
}
