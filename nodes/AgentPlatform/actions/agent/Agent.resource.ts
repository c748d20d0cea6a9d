import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export { get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an agent, with the questions it accepts',
				action: 'Get an agent',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List agents, optionally filtered by text or type',
				action: 'Get many agents',
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
