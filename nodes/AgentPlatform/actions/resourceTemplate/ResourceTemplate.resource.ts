import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['resourceTemplate'] } },
		description: 'What to do with the resource templates',
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List resource templates, optionally filtered by text or type',
				action: 'Get many resource templates',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
