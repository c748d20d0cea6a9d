import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS } from '../../helpers/records/lists';
import { inItem, readOptionalNumericId } from '../../helpers/input/parameters';
import {
	agentLocator,
	filtersProperty,
	newestOldestOptions,
	returnAllLimitProperties,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllLimitProperties,
	filtersProperty('runs', [
		{
			...agentLocator,
			required: false,
			description: 'Only runs of this agent',
		},
		{
			displayName: 'Search',
			name: 'q',
			type: 'string',
			default: '',
			placeholder: 'e.g. otters',
			description: 'Only runs that contain this text (the platform decides where it looks)',
		},
		{
			displayName: 'Session (Root ID)',
			name: 'rootId',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.root_id }}',
			description:
				'Only the turns of one conversation: the root_id every run of it carries. Listed oldest first unless Sort says otherwise.',
		},
	]),
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'options',
		default: 'auto',
		description: 'The order of the runs',
		options: [
			{
				name: 'Automatic',
				value: 'auto',
				description: 'Oldest first for a session (its turns in order), else newest first',
			},
			...newestOldestOptions,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agentResponse'], operation: ['getAll'] } },
	properties,
);

function readRunFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.agentId !== undefined) {
		// A filter added but left empty filters nothing.
		const agent = readOptionalNumericId(ctx, 'filters.agentId', 'agent', itemIndex);
		if (agent) qs.agent_id = agent;
	}
	const rootId = String(filters.rootId ?? '').trim();
	if (rootId) {
		if (!/^\d+$/.test(rootId)) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(`The Session (Root ID) "${rootId}" is not a number`, itemIndex),
				{ itemIndex, description: 'Give the root_id of a run, e.g. {{ $json.root_id }}.' },
			);
		}
		qs.root_id = rootId;
	}
	if (String(filters.q ?? '').trim()) qs.q = String(filters.q).trim();
	const sort = ctx.getNodeParameter('sort', itemIndex, 'auto') as string;
	qs.sort = sort === 'asc' || sort === 'desc' ? sort : qs.root_id ? 'asc' : 'desc';
	return qs;
}

/** The runs as the platform keeps them, each with its input and output. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readRunFilters(this, itemIndex);
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/agent-responses', qs, resource: 'the agent responses list' },
		{ maxPerPage: PAGE_LIMITS.agentResponses },
	);
}
