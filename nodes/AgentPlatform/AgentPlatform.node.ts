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
import { batchingDescription, router } from './actions/router';
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
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Run AI agents on the Agent Platform and manage their files, memories and webhooks',
		defaults: { name: 'Agent Platform' },
		usableAsTool: true,
		// A Memory input for the chat operations only, as n8n's OpenAI node computes its inputs. An
		// input added beside `main` changes no saved workflow (nothing is connected to it), so no
		// new node version; the tool variant has no inputs (n8n replaces them).
		inputs: `={{ ["${NodeConnectionTypes.Main}"].concat(($parameter.resource ?? "agent") === "agent" && ["execute", "chatCompletion"].includes($parameter.operation ?? "execute") ? [{ "type": "${NodeConnectionTypes.AiMemory}", "displayName": "Memory", "maxConnections": 1, "required": false }] : []) }}`,
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
