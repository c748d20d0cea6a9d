import type { INodeProperties } from 'n8n-workflow';

import * as getUsage from './getUsage.operation';

export { getUsage };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workspace'] } },
		description: 'What to read about the workspace',
		options: [
			{
				name: 'Get Usage',
				value: 'getUsage',
				description:
					"List the workspace's agent executions with the credits each spent, newest first",
				action: 'Get workspace usage',
			},
		],
		default: 'getUsage',
	},
	...getUsage.description,
];
