import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agentResponse'] } },
		description: 'What to do with a run of an agent',
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an agent run by its ID, optionally waiting until it finishes',
				action: 'Get an agent response',
			},
		],
		default: 'get',
	},
	...get.description,
];
