import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FILE, requestRecord } from '../../helpers/records/records';
import { fileLocator } from './file.descriptions';
import { deletedItem } from '../../helpers/records/deleted';

const properties: INodeProperties[] = [fileLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id, answer } = await requestRecord(this, itemIndex, FILE, { method: 'DELETE' });
	return this.helpers.returnJsonArray(deletedItem(id, answer));
}
