import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	isFinished,
	pollAgentResponse,
	simplifyAgentResponse,
	throwIfRunFailed,
} from '../../helpers/runs/agentResponses';
import { inItem, minutesToMs } from '../../helpers/input/parameters';
import { apiRequest } from '../../transport/request';
import { timeoutProperty } from '../common.descriptions';
import { downloadGeneratedFilesProperty } from '../generatedFiles.descriptions';
import { withGeneratedFiles } from '../../helpers/runs/generatedFiles';

const properties: INodeProperties[] = [
	{
		displayName: 'Response ID',
		name: 'responseId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1234',
		description: 'The ID of the agent run, as returned by Agent → Execute',
	},
	{
		displayName: 'Wait Until Finished',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to keep polling until the run has finished (or the timeout passes)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How to fetch the run',
		options: [
			downloadGeneratedFilesProperty,
			{
				displayName: 'Include Full Response',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description: "Whether to return the platform's whole record instead of the simplified item",
			},
			timeoutProperty('With Wait Until Finished: how long to wait', 10, {
				'/waitForCompletion': [true],
			}),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agentResponse'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const responseId = String(this.getNodeParameter('responseId', itemIndex, '') ?? '').trim();
	if (!responseId) {
		throw new NodeOperationError(this.getNode(), inItem(`The Response ID is empty`, itemIndex), {
			itemIndex,
		});
	}
	const wait = this.getNodeParameter('waitForCompletion', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const startedAt = Date.now();
	let response = (await apiRequest(this, {
		method: 'GET',
		path: `/agent-responses/${encodeURIComponent(responseId)}`,
		resource: `agent response ${responseId}`,
		itemIndex,
	})) as IDataObject;
	if (wait && !isFinished(response)) {
		const timeoutMs = minutesToMs(options.timeout, 10);
		response = await pollAgentResponse(this, responseId, itemIndex, { startedAt, timeoutMs });
	}
	if (wait) throwIfRunFailed(this, response, itemIndex);
	const items = this.helpers.returnJsonArray(
		options.fullResponse ? response : simplifyAgentResponse(response),
	);
	return await withGeneratedFiles(this, items, response, itemIndex);
}
