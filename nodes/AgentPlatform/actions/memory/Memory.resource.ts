import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteMemory from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, deleteMemory as delete, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['memory'] } },
		description: 'What to do with a memory',
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Store a memory, optionally in a collection',
				action: 'Create a memory',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a memory',
				action: 'Delete a memory',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List memories, optionally of one collection',
				action: 'Get many memories',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Replace the text of a memory, optionally moving it to another collection',
				action: 'Update a memory',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteMemory.description,
	...getAll.description,
	...update.description,
];
