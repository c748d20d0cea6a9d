import type { INodeProperties } from 'n8n-workflow';

import * as link from './link.operation';
import * as getAll from './getAll.operation';
import * as unlink from './unlink.operation';

export { getAll, link, unlink };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agentFile'] } },
		description: 'What to do with the files linked to an agent',
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the files linked to an agent, one item per file',
				action: 'Get the files of an agent',
			},
			{
				name: 'Link',
				value: 'link',
				description: 'Link uploaded files to an agent, so that it can use them',
				action: 'Link files to an agent',
			},
			{
				name: 'Unlink',
				value: 'unlink',
				description: 'Remove a file from an agent (the file itself stays stored)',
				action: 'Unlink a file from an agent',
			},
		],
		default: 'link',
	},
	...link.description,
	...getAll.description,
	...unlink.description,
];
