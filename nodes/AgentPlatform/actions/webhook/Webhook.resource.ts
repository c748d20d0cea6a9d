import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteWebhook from './delete.operation';
import * as getAll from './getAll.operation';

export { create, deleteWebhook as delete, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		description: 'What to do with the webhooks of agents',
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Register an address the platform notifies about an agent',
				action: 'Create a webhook',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Remove a webhook',
				action: 'Delete a webhook',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List many webhooks, of every agent or of one agent',
				action: 'Get many webhooks',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...deleteWebhook.description,
	...getAll.description,
];
