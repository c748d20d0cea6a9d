import type { INodeProperties } from 'n8n-workflow';

import * as deleteFile from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as processFile from './process.operation';
import * as upload from './upload.operation';

export { deleteFile as delete, get, getAll, processFile as process, upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		description: 'What to do with the files stored on the platform',
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a file from the platform',
				action: 'Delete a file',
			},
			{
				name: 'Get',
				value: 'get',
				description: "Get a file's record: name, size, status and credits",
				action: 'Get a file',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the stored files, newest or oldest first',
				action: 'Get many files',
			},
			{
				name: 'Process',
				value: 'process',
				description: 'Have the platform process a stored file (spends credits)',
				action: 'Process a file',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a file from an input binary field, optionally processing it',
				action: 'Upload a file',
			},
		],
		default: 'upload',
	},
	...upload.description,
	...get.description,
	...getAll.description,
	...deleteFile.description,
	...processFile.description,
];
