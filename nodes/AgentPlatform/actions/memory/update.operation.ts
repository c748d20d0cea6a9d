import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import {
	collectionLocator,
	optionalCollectionId,
} from '../memoryCollection/collection.descriptions';
import { memoryIdProperty, memoryTextParameter, memoryTextProperty } from './memory.descriptions';

const properties: INodeProperties[] = [
	memoryIdProperty,
	memoryTextProperty('The new text of the memory; it replaces the old text.'),
	collectionLocator({
		name: 'collectionId',
		displayName: 'Move to Collection',
		required: false,
		description: 'The collection to move the memory to. Leave empty to keep it where it is.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memory'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const memoryId = numericIdParameter(this, 'memoryId', 'memory', itemIndex);
	const memory = memoryTextParameter(this, itemIndex);
	const collectionId = optionalCollectionId(this, 'collectionId', itemIndex);
	const body = (await apiRequest.call(this, {
		method: 'PATCH',
		path: `/memories/${memoryId}`,
		body: { memory, ...(collectionId ? { collection_id: Number(collectionId) } : {}) },
		resource: `memory ${memoryId}`,
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray((body.memory as IDataObject | undefined) ?? body);
}
