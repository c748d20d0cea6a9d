import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readMemoryBody } from '../../helpers/input/parameters';
import { MEMORY, readRecordId, requestRecord, unwrapRecord } from '../../helpers/records/records';
import { collectionLocator } from '../memoryCollection/collection.descriptions';
import { memoryIdProperty, memoryTextProperty } from './memory.descriptions';

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
	const id = readRecordId(this, MEMORY, itemIndex);
	const { body } = readMemoryBody(this, itemIndex);
	const { answer } = await requestRecord(this, itemIndex, MEMORY, {
		id,
		method: 'PATCH',
		body,
	});
	return this.helpers.returnJsonArray(unwrapRecord(answer, 'memory'));
}
