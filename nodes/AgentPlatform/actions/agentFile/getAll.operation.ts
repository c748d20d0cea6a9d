import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AGENT, requestRecord } from '../../helpers/records/records';
import { agentLocator } from '../common.descriptions';

const properties: INodeProperties[] = [agentLocator];

export const description = updateDisplayOptions(
	// `list`: Get Many's old name, still run as Get Many (see AgentFile.resource.ts)
	{ show: { resource: ['agentFile'], operation: ['getAll', 'list'] } },
	properties,
);

/** One output item per linked file, each with the agent's ID beside the file's fields. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id: agentId, answer: set } = await requestRecord(this, itemIndex, AGENT, {
		method: 'GET',
		subpath: '/files',
	});
	const files = (Array.isArray(set?.files) ? set.files : []) as IDataObject[];
	return this.helpers.returnJsonArray(
		files.map((file) => ({ ...file, agent_id: set.id ?? Number(agentId) })),
	);
}
