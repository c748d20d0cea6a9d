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
	{ show: { resource: ['agentFile'], operation: ['getAll'] } },
	properties,
);

/** One output item per linked file, each with the agent's ID beside the file's fields. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const agentId = numericIdParameter(this, 'agentId', 'agent', itemIndex);
	const set = (await apiRequest.call(this, {
		method: 'GET',
		path: `/agents/${agentId}/files`,
		resource: `agent ${agentId}`,
		itemIndex,
	})) as IDataObject;
	const files = (Array.isArray(set?.files) ? set.files : []) as IDataObject[];
	return this.helpers.returnJsonArray(
		files.map((file) => ({ ...file, agent_id: set.id ?? Number(agentId) })),
	);
}
