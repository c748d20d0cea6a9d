import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as link from './link.operation';
import * as getAll from './getAll.operation';
import * as unlink from './unlink.operation';

export { getAll, link, unlink };

const operations: INodePropertyOptions[] = [
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
];

/**
 * Get Many's value was `list` before it was renamed; nodes saved with it are version 1. Version 1
 * keeps it as an option, so that the editor shows such a node with a valid value, and the router
 * runs it as `getAll` (its `renamedOperations`). Version 1.1 on offers only the new name.
 */
const renamedList: INodePropertyOptions = {
	name: 'List (Old Name of Get Many)',
	value: 'list',
	description: 'The same as Get Many, under its old name',
	action: 'List the files of an agent',
};

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	description: 'What to do with the files linked to an agent',
	options: operations,
	default: 'link',
};

export const description: INodeProperties[] = [
	{
		...operation,
		displayOptions: { show: { resource: ['agentFile'], '@version': [1] } },
		options: [...operations.slice(0, 2), renamedList, ...operations.slice(2)],
	},
	{
		...operation,
		displayOptions: { show: { resource: ['agentFile'], '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	...link.description,
	...getAll.description,
	...unlink.description,
];
