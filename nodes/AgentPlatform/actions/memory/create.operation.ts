import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import {
	collectionLocator,
	optionalCollectionId,
} from '../memoryCollection/collection.descriptions';
import { memoryTextParameter, memoryTextProperty } from './memory.descriptions';

const properties: INodeProperties[] = [
	memoryTextProperty('The text to remember.'),
	collectionLocator({
		name: 'collectionId',
		required: false,
		description: 'The collection to store the memory in. Leave empty for the "default" collection.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memory'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const memory = memoryTextParameter(this, itemIndex);
	const collectionId = optionalCollectionId(this, 'collectionId', itemIndex);
	const body = (await apiRequest.call(this, {
		method: 'POST',
		path: '/memories',
		body: { memory, ...(collectionId ? { collection_id: Number(collectionId) } : {}) },
		...(collectionId ? { resource: `memory collection ${collectionId}` } : {}),
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray((body.memory as IDataObject | undefined) ?? body);
}
