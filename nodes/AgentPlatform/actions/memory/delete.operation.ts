import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { memoryIdProperty } from './memory.descriptions';
import { deletedItem } from '../../helpers/deleted';

const properties: INodeProperties[] = [memoryIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['memory'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const memoryId = numericIdParameter(this, 'memoryId', 'memory', itemIndex);
	const answer = await apiRequest.call(this, {
		method: 'DELETE',
		path: `/memories/${memoryId}`,
		resource: `memory ${memoryId}`,
		itemIndex,
	});
	return this.helpers.returnJsonArray(deletedItem(memoryId, answer));
}
