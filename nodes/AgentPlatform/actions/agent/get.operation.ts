import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
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
	const agentId = numericIdParameter(this, 'agentId', 'agent', itemIndex);
	const agent = (await apiRequest.call(this, {
		method: 'GET',
		path: `/agents/${agentId}`,
		resource: `agent ${agentId}`,
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(agent);
}
