import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { fileLocator } from './file.descriptions';

const properties: INodeProperties[] = [fileLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileId = numericIdParameter(this, 'fileId', 'file', itemIndex);
	const file = (await apiRequest.call(this, {
		method: 'GET',
		path: `/files/${fileId}`,
		resource: `file ${fileId}`,
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(file);
}
