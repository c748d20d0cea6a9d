import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS, readListQuery } from '../../helpers/records/lists';
import { filtersProperty, returnAllLimitProperties } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllLimitProperties,
	filtersProperty('templates', [
		{
			displayName: 'Search',
			name: 'q',
			type: 'string',
			default: '',
			placeholder: 'e.g. onboarding',
			description: 'Only resource templates whose title or descriptions contain this text',
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'string',
			default: '',
			placeholder: 'e.g. prompt',
			description: 'Only resource templates of this type, as the platform names it',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['resourceTemplate'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readListQuery(this, itemIndex, 'filters', ['q', 'type']);
	// the platform names types without spaces; one typed around the name still matches
	if (qs.type) qs.type = String(qs.type).trim();
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/resources', qs },
		{ maxPerPage: PAGE_LIMITS.resources },
	);
}
