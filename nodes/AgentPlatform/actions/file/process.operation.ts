import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { waitUntilProcessed } from '../../helpers/fileProcessing';
import { minutesToMs, numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import { platformNotice } from '../common.descriptions';
import { fileLocator, processingTimeout } from './file.descriptions';

const properties: INodeProperties[] = [
	platformNotice('creditsNotice', 'Processing a file spends credits of your workspace'),
	fileLocator,
	{
		displayName: 'Wait Until Processed',
		name: 'waitUntilProcessed',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only once the platform reports the file completed, instead of at once',
	},
	processingTimeout({ waitUntilProcessed: [true] }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['process'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileId = numericIdParameter(this, 'fileId', 'file', itemIndex);
	const wait = this.getNodeParameter('waitUntilProcessed', itemIndex, false) as boolean;
	const file = (await apiRequest.call(this, {
		method: 'POST',
		path: `/files/${fileId}/process`,
		resource: `file ${fileId}`,
		itemIndex,
	})) as IDataObject;
	if (!wait) return this.helpers.returnJsonArray(file);
	const timeoutMs = minutesToMs(this.getNodeParameter('timeout', itemIndex, 10), 10);
	return this.helpers.returnJsonArray(
		await waitUntilProcessed.call(this, file, itemIndex, timeoutMs),
	);
}
