import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readNumericId } from '../../helpers/input/parameters';
import { getManyItems, PAGE_LIMITS } from '../../helpers/records/lists';
import { agentLocator, returnAllLimitProperties } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Webhooks Of',
		name: 'scope',
		type: 'options',
		default: 'all',
		description: 'Whether to list the webhooks of every agent or of one agent',
		options: [
			{ name: 'All Agents', value: 'all' },
			{ name: 'One Agent', value: 'agent' },
		],
	},
	{
		...agentLocator,
		description: 'The agent whose webhooks to list',
		displayOptions: { show: { scope: ['agent'] } },
	},
	...returnAllLimitProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scope = this.getNodeParameter('scope', itemIndex, 'all') as string;
	const agentId =
		scope === 'agent' ? readNumericId(this, 'agentId', 'agent', itemIndex) : undefined;
	return await getManyItems(
		this,
		itemIndex,
		agentId
			? { method: 'GET', path: `/agents/${agentId}/webhooks`, resource: `agent ${agentId}` }
			: { method: 'GET', path: '/webhooks' },
		{ maxPerPage: PAGE_LIMITS.webhooks },
	);
}
