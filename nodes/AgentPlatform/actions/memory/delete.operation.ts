import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { MEMORY, requestRecord } from '../../helpers/records/records';
import { memoryIdProperty } from './memory.descriptions';
import { deletedItem } from '../../helpers/records/deleted';

const properties: INodeProperties[] = [memoryIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['memory'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id, answer } = await requestRecord(this, itemIndex, MEMORY, { method: 'DELETE' });
	return this.helpers.returnJsonArray(deletedItem(id, answer));
}
