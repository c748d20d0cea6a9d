import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readNumericId } from '../../helpers/input/parameters';
import { deleteWebhook } from '../../helpers/trigger/webhooks';
import { deletedItem } from '../../helpers/records/deleted';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const webhookId = readNumericId(this, 'webhookId', 'webhook', itemIndex);
	const { deleted, body } = await deleteWebhook(this, webhookId, itemIndex);
	return this.helpers.returnJsonArray(deletedItem(webhookId, body, deleted));
}
