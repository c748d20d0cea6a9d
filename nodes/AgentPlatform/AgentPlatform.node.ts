import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as agent from './actions/agent/Agent.resource';
import * as agentFile from './actions/agentFile/AgentFile.resource';
import * as agentResponse from './actions/agentResponse/AgentResponse.resource';
import * as file from './actions/file/File.resource';
import * as memory from './actions/memory/Memory.resource';
import * as memoryCollection from './actions/memoryCollection/MemoryCollection.resource';
import * as resourceTemplate from './actions/resourceTemplate/ResourceTemplate.resource';
import * as webhook from './actions/webhook/Webhook.resource';
import * as workspace from './actions/workspace/Workspace.resource';
import { batchingDescription, router } from './actions/router';
import { NODE_INPUTS_EXPRESSION } from './helpers/chatMemory/nodeInputs';
import { testAgentPlatformApi } from './methods/credentialTest';
import { searchAgents, searchCollections, searchFiles } from './methods/listSearch';
import { getModels, getTemperatures, getTools } from './methods/loadOptions';
import { getAnswerDescriptions, getAnswerFields } from './methods/resourceMapping';

export class AgentPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Platform',
		name: 'agentPlatform',
		icon: { light: 'file:agentPlatform.svg', dark: 'file:agentPlatform.dark.svg' },
		group: ['transform'],
		// 1.1: Agent File's Get Many no longer offered under its old value `list` (version 1 keeps it)
		// 1.2: Agent → Execute's Message Source defaults to the chat's message (an item's chatInput), and
		// in tool mode to one the AI Agent's model writes ($fromAI); older versions keep an empty one
		// 1.3: under a Chat Trigger, the files of a chat message are attached to Agent → Execute's run
		// (Options → Attach Chat Files); older versions attach only Attach Input Binaries
		// 1.4: Message Source defaults to the chat's message where the item has one, else the Message
		// below, so that a first run after a Manual Trigger works; 1.2 and 1.3 keep the chat's only
		version: [1, 1.1, 1.2, 1.3, 1.4],
		defaultVersion: 1.4,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Run AI agents on the Agent Platform and manage their files, memories and webhooks',
		defaults: { name: 'Agent Platform' },
		usableAsTool: true,
		// A Memory input for the chat operations only (helpers/chatMemory/nodeInputs.ts)
		inputs: NODE_INPUTS_EXPRESSION,
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agentPlatformApi', required: true, testedBy: 'testAgentPlatformApi' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				description: 'The kind of platform record to work with',
				options: [
					{ name: 'Agent', value: 'agent' },
					{ name: 'Agent File', value: 'agentFile' },
					{ name: 'Agent Response', value: 'agentResponse' },
					{ name: 'File', value: 'file' },
					{ name: 'Memory', value: 'memory' },
					{ name: 'Memory Collection', value: 'memoryCollection' },
					{ name: 'Resource Template', value: 'resourceTemplate' },
					{ name: 'Webhook', value: 'webhook' },
					{ name: 'Workspace', value: 'workspace' },
				],
				default: 'agent',
			},
			...agent.description,
			...agentResponse.description,
			...agentFile.description,
			...file.description,
			...memory.description,
			...memoryCollection.description,
			...resourceTemplate.description,
			...webhook.description,
			...workspace.description,
			batchingDescription,
		],
	};

	methods = {
		credentialTest: { testAgentPlatformApi },
		listSearch: { searchAgents, searchCollections, searchFiles },
		loadOptions: { getModels, getTools, getTemperatures, getAnswerDescriptions },
		resourceMapping: { getAnswerFields },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
