import type { INodeProperties } from 'n8n-workflow';

import * as link from './link.operation';
import * as list from './list.operation';
import * as unlink from './unlink.operation';

export { link, list, unlink };

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
				name: 'Link',
				value: 'link',
				description: 'Link uploaded files to an agent, so that it can use them',
				action: 'Link files to an agent',
			},
			{
				name: 'List',
				value: 'list',
				description: 'List the files linked to an agent, one item per file',
				action: 'List the files of an agent',
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
	...list.description,
	...unlink.description,
];
