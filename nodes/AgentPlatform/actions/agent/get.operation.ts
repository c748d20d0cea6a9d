import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AGENT, requestRecord } from '../../helpers/records/records';
import { agentLocator } from '../common.descriptions';

const properties: INodeProperties[] = [agentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { answer } = await requestRecord(this, itemIndex, AGENT, { method: 'GET' });
	return this.helpers.returnJsonArray(answer);
}
