import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FILE, requestRecord } from '../../helpers/records/records';
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
	const { answer } = await requestRecord(this, itemIndex, FILE, { method: 'GET' });
	return this.helpers.returnJsonArray(answer);
}
