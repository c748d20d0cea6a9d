import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';

const properties: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 42',
		description: 'The ID of the webhook, as returned by Create or Get Many',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['webhook'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const webhookId = numericIdParameter(this, 'webhookId', 'webhook', itemIndex);
	let body: IDataObject | undefined;
	let failure: unknown;
	try {
		body = (await apiRequest.call(this, {
			method: 'DELETE',
			path: `/webhooks/${webhookId}`,
			resource: `webhook ${webhookId}`,
			itemIndex,
		})) as IDataObject | undefined;
	} catch (error) {
		failure = error;
	}
	// A webhook the platform does not know (404) is already gone: the wanted end state holds.
	if (failure instanceof NodeApiError && failure.httpCode === '404') {
		return this.helpers.returnJsonArray({ id: Number(webhookId), deleted: false, alreadyGone: true });
	}
	if (failure !== undefined) throw failure;
	return this.helpers.returnJsonArray({
		id: Number(webhookId),
		deleted: true,
		...(typeof body?.message === 'string' ? { message: body.message } : {}),
	});
}
