import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as agent from './actions/agent/Agent.resource';
import { router } from './actions/router';
import { searchAgents } from './methods/listSearch';

export class AgentPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Platform',
		name: 'agentPlatform',
		icon: { light: 'file:agentPlatform.svg', dark: 'file:agentPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Run AI agents on the Agent Platform and manage their files, memories and webhooks',
		defaults: { name: 'Agent Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agentPlatformApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Agent', value: 'agent' }],
				default: 'agent',
			},
			...agent.description,
		],
	};

	methods = {
		listSearch: { searchAgents },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
