import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { explainDefaultCollection } from './defaultCollection';
import {
	collectionLocator,
	collectionNameParameter,
	collectionNameProperty,
} from './collection.descriptions';

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
	const collectionId = numericIdParameter(this, 'collectionId', 'collection', itemIndex);
	const name = collectionNameParameter(this, itemIndex);
	const body = (await apiRequest
		.call(this, {
			method: 'PUT',
			path: `/memory-collections/${collectionId}`,
			body: { name },
			resource: `memory collection ${collectionId}`,
			itemIndex,
		})
		.catch((error: unknown) => {
			throw explainDefaultCollection(this, error, 'renamed', itemIndex);
		})) as IDataObject;
	return this.helpers.returnJsonArray((body.collection as IDataObject | undefined) ?? body);
}
