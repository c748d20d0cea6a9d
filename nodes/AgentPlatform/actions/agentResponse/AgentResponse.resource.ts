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
		displayOptions: { show: { resource: ['agentResponse'] } },
		description: 'What to do with a run of an agent',
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an agent run by its ID, optionally waiting until it finishes',
				action: 'Get an agent response',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List runs: of one agent, of one session (every turn in order), or matching a text',
				action: 'Get many agent responses',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
];
