import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { inItem, readNumericId } from '../../helpers/input/parameters';
import { createWebhook } from '../../helpers/trigger/webhooks';
import { agentLocator, platformNotice } from '../common.descriptions';

const properties: INodeProperties[] = [
	platformNotice(
		'httpsNotice',
		'The platform accepts only https:// webhook URLs (the local emulator also takes http://)',
	),
	{ ...agentLocator, description: 'The agent whose finished runs are sent to the URL' },
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/hooks/agent-runs',
		description:
			'The address that receives the notifications. Must be an http:// or https:// URL; the production platform accepts https:// only.',
	},
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		default: 'POST',
		description: 'The HTTP method the platform calls the URL with',
		options: [
			{ name: 'POST', value: 'POST' },
			{ name: 'GET', value: 'GET' },
		],
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'active',
		description: 'Whether the platform sends notifications to this webhook right away',
		options: [
			{ name: 'Active', value: 'active' },
			{ name: 'Inactive', value: 'inactive' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['create'] } },
	properties,
);

/** What is wrong with a webhook URL, or undefined when it is a well-formed http(s) address with a host. */
function webhookUrlProblem(url: string): string | undefined {
	if (!url) return 'The webhook URL is empty';
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `The webhook URL "${url}" is not a valid URL`;
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return `The webhook URL "${url}" must start with http:// or https://`;
	}
	if (!parsed.hostname) return `The webhook URL "${url}" has no host name`;
	return undefined;
}

/** The webhook URL, checked before anything is sent. */
function webhookUrlParameter(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = String(ctx.getNodeParameter('url', itemIndex, '') ?? '').trim();
	const problem = webhookUrlProblem(url);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), inItem(problem, itemIndex), {
			itemIndex,
			description:
				'Give a full address such as https://example.com/hooks/agent-runs (the production platform accepts https:// only).',
		});
	}
	return url;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const agentId = readNumericId(this, 'agentId', 'agent', itemIndex);
	const url = webhookUrlParameter(this, itemIndex);
	const method = this.getNodeParameter('method', itemIndex, 'POST') as string;
	const status = this.getNodeParameter('status', itemIndex, 'active') as string;
	return this.helpers.returnJsonArray(
		await createWebhook(this, agentId, { url, method, status }, itemIndex),
	);
}
