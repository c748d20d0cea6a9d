import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { memoryIdProperty } from './memory.descriptions';

const properties: INodeProperties[] = [memoryIdProperty];

export const description = updateDisplayOptions({ show: { resource: ['memory'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const memoryId = numericIdParameter(this, 'memoryId', 'memory', itemIndex);
	const body = (await apiRequest.call(this, {
		method: 'DELETE',
		path: `/memories/${memoryId}`,
		resource: `memory ${memoryId}`,
		itemIndex,
	})) as IDataObject | undefined;
	return this.helpers.returnJsonArray({
		id: Number(memoryId),
		deleted: true,
		...(typeof body?.message === 'string' ? { message: body.message } : {}),
	});
}
