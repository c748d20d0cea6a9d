import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { waitUntilProcessed } from '../../helpers/files/fileProcessing';
import { minutesToMs } from '../../helpers/input/parameters';
import { FILE, requestRecord } from '../../helpers/records/records';
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
	const wait = this.getNodeParameter('waitUntilProcessed', itemIndex, false) as boolean;
	const { answer: file } = await requestRecord(this, itemIndex, FILE, {
		method: 'POST',
		subpath: '/process',
	});
	if (!wait) return this.helpers.returnJsonArray(file);
	const timeoutMs = minutesToMs(this.getNodeParameter('timeout', itemIndex, 10), 10);
	return this.helpers.returnJsonArray(await waitUntilProcessed(this, file, itemIndex, timeoutMs));
}
