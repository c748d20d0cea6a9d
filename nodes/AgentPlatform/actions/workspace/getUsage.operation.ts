import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS } from '../../helpers/records/lists';
import { filtersProperty, platformNotice, returnAllLimitProperties } from '../common.descriptions';
import { MAX_USAGE_DAYS, readUsageQuery } from './usageQuery';

const customRange = { period: ['custom'] };

const properties: INodeProperties[] = [
	platformNotice(
		'usageCacheNotice',
		'The platform keeps each listing for about a minute: an execution that ended less than a minute ago may not be in it yet',
	),
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: '30d',
		description:
			'Which executions to list, by when they ran. The platform counts whole days: each period ends with today.',
		options: [
			{
				name: 'Today',
				value: '1d',
				description: 'Executions since midnight, on the platform’s clock',
			},
			{ name: 'Last 7 Days', value: '7d', description: 'Today and the 6 days before it' },
			{ name: 'Last 30 Days', value: '30d', description: 'Today and the 29 days before it' },
			{
				name: 'Custom Date Range',
				value: 'custom',
				description: `From a Start Date to an End Date, both included, at most ${MAX_USAGE_DAYS} days`,
			},
		],
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: `The first day listed (included). At most ${MAX_USAGE_DAYS} days up to the End Date; only the date counts.`,
		displayOptions: { show: customRange },
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'The last day listed (included), not before the Start Date; only the date counts',
		displayOptions: { show: customRange },
	},
	...returnAllLimitProperties,
	filtersProperty('executions', [
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			default: 'chat',
			description: 'Only executions of agents of this type',
			options: [
				{ name: 'Chat', value: 'chat' },
				{ name: 'Code', value: 'code' },
				{ name: 'Image', value: 'image' },
				{ name: 'Text', value: 'text' },
				{ name: 'Video', value: 'video' },
				{ name: 'Voiceover', value: 'voiceover' },
			],
		},
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 7',
			description:
				"Only executions run by this user (the platform's numeric user ID). Another user's needs the workspace's permission to read other users' activity; without it the platform refuses (403) and lists only your own.",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['getUsage'] } },
	properties,
);

/**
 * One item per agent execution of the credential's workspace, newest first, with the platform's
 * fields as sent (`credits`, `name` and `slug` of the agent, `type`, `user_id`, `email`,
 * `created_at`, `status`, …). Pages of 100 (Return All) follow `has_more` at the credential's pace.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = readUsageQuery(this, itemIndex);
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/workspaces/usage', qs, resource: 'the workspace usage' },
		{ maxPerPage: PAGE_LIMITS.usage, itemsKey: 'items' },
	);
}
