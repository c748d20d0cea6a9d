import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readNumericId } from '../../helpers/input/parameters';
import { apiRequest } from '../../transport/request';
import { agentLocator } from '../common.descriptions';
import { fileLocator } from '../file/file.descriptions';

const properties: INodeProperties[] = [agentLocator, fileLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['agentFile'], operation: ['unlink'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const agentId = readNumericId(this, 'agentId', 'agent', itemIndex);
	const fileId = readNumericId(this, 'fileId', 'file', itemIndex);
	const answer = (await apiRequest(this, {
		method: 'DELETE',
		path: `/agents/${agentId}/files/${fileId}`,
		resource: `file ${fileId} among the files of agent ${agentId}`,
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(answer);
}
