import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { fileLocator } from './file.descriptions';
import { deletedItem } from '../../helpers/deleted';

const properties: INodeProperties[] = [fileLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileId = numericIdParameter(this, 'fileId', 'file', itemIndex);
	const answer = await apiRequest.call(this, {
		method: 'DELETE',
		path: `/files/${fileId}`,
		resource: `file ${fileId}`,
		itemIndex,
	});
	return this.helpers.returnJsonArray(deletedItem(fileId, answer));
}
