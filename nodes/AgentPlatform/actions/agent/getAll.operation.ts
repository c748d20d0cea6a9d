import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS, readListQuery } from '../../helpers/records/lists';
import { filtersProperty, returnAllLimitProperties } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllLimitProperties,
	filtersProperty('agents', [
		{
			displayName: 'Search',
			name: 'q',
			type: 'string',
			default: '',
			placeholder: 'e.g. translator',
			description: 'Only agents whose title or descriptions contain this text',
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			default: 'chat',
			description: 'Only agents of this type',
			options: [
				{ name: 'Chat', value: 'chat' },
				{ name: 'Image', value: 'image' },
				{ name: 'Text', value: 'text' },
				{ name: 'Video', value: 'video' },
			],
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readListQuery(this, itemIndex, 'filters', ['q', 'type']);
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/agents', qs },
		{ maxPerPage: PAGE_LIMITS.agents },
	);
}
