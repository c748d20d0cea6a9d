import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { numericIdParameter } from '../../helpers/parameters';
import { deleteWebhook } from '../../helpers/webhooks';

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
	const { deleted, body } = await deleteWebhook.call(this, webhookId, itemIndex);
	if (!deleted) return this.helpers.returnJsonArray({ id: Number(webhookId), deleted: false, alreadyGone: true });
	return this.helpers.returnJsonArray({
		id: Number(webhookId),
		deleted: true,
		...(typeof body?.message === 'string' ? { message: body.message } : {}),
	});
}
