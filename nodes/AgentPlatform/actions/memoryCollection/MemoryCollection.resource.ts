import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteCollection from './delete.operation';
import * as getAll from './getAll.operation';
import * as rename from './rename.operation';

export { create, deleteCollection as delete, getAll, rename };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['memoryCollection'] } },
		description: 'What to do with a memory collection',
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a memory collection',
				action: 'Create a memory collection',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a memory collection together with all its memories',
				action: 'Delete a memory collection',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List memory collections, optionally searched by name',
				action: 'Get many memory collections',
			},
			{
				name: 'Rename',
				value: 'rename',
				description: 'Give a memory collection a new name',
				action: 'Rename a memory collection',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...deleteCollection.description,
	...getAll.description,
	...rename.description,
];
