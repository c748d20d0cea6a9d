import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { inItem, readNumericId } from '../../helpers/input/parameters';
import { apiRequest } from '../../transport/request';
import { agentLocator } from '../common.descriptions';
import { fileLocator } from '../file/file.descriptions';

const properties: INodeProperties[] = [
	agentLocator,
	{
		displayName: 'Files',
		name: 'files',
		type: 'fixedCollection',
		placeholder: 'Add File',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'The uploaded files to link to the agent',
		options: [{ displayName: 'File', name: 'values', values: [fileLocator] }],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agentFile'], operation: ['link'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const agentId = readNumericId(this, 'agentId', 'agent', itemIndex);
	const entries = (this.getNodeParameter('files.values', itemIndex, []) as IDataObject[]) ?? [];
	const fileIds: number[] = [];
	entries.forEach((_entry, index) => {
		const id = Number(
			readNumericId(this, `files.values[${index}].fileId`, `file number ${index + 1}`, itemIndex),
		);
		if (!fileIds.includes(id)) fileIds.push(id);
	});
	if (fileIds.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			inItem(`No file to link: add at least one file`, itemIndex),
			{
				itemIndex,
			},
		);
	}
	const set = (await apiRequest(this, {
		method: 'POST',
		path: `/agents/${agentId}/files`,
		body: { file_ids: fileIds },
		resource: `agent ${agentId}`,
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(set);
}
