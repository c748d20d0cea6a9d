import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readMemoryBody } from '../../helpers/input/parameters';
import { unwrapRecord } from '../../helpers/records/records';
import { apiRequest } from '../../transport/request';
import { collectionLocator } from '../memoryCollection/collection.descriptions';
import { memoryTextProperty } from './memory.descriptions';

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
	const { body, collectionId } = readMemoryBody(this, itemIndex);
	const answer = (await apiRequest(this, {
		method: 'POST',
		path: '/memories',
		body,
		...(collectionId ? { resource: `memory collection ${collectionId}` } : {}),
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(unwrapRecord(answer, 'memory'));
}
