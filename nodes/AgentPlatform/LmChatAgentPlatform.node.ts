// type-only: compiles to nothing, so the package loads where n8n has no SDK (1.x); it marks this
// node as built on n8n's AI node SDK, which n8n's codex rules ask of a node in the "AI" category
import type { ChatModel } from '@n8n/ai-node-sdk';
import type {
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	agentEmptiedNotice,
	connectModelNotice,
	modelOptionsProperty,
} from './actions/chatModel.descriptions';
import { agentLocator, chatSettingsProperties } from './actions/common.descriptions';
import { loadAiNodeSdk } from './helpers/chatModel/aiNodeSdk';
import { readModelParameters } from './helpers/chatModel/modelSettings';
import { createPlatformChatModel } from './helpers/chatModel/platformChatModel';
import { checkSdkExports } from './helpers/chatModel/sdkCheck';
import { asSuppliedModel } from './helpers/chatModel/suppliedModel';
import { testAgentPlatformApi } from './methods/credentialTest';
import { searchChatAgents } from './methods/listSearch';
import { getChatModels, getChatTemperatures, getChatTools } from './methods/loadOptions';

/**
 * A chat agent of the platform as the language model of n8n's AI Agent and chains (n8n 2.16 and
 * later: it needs n8n's AI node SDK, loaded only when the model is used).
 */
export class LmChatAgentPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Platform Chat Model',
		name: 'lmChatAgentPlatform',
		icon: { light: 'file:agentPlatform.svg', dark: 'file:agentPlatform.dark.svg' },
		group: ['transform'],
		version: [1],
		subtitle: '={{ $parameter["model"] || "The agent\'s own model" }}',
		description: "A chat agent of the Agent Platform as the model of n8n's AI Agent and chains",
		defaults: { name: 'Agent Platform Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		credentials: [{ name: 'agentPlatformApi', required: true, testedBy: 'testAgentPlatformApi' }],
		properties: [
			connectModelNotice,
			{
				...agentLocator,
				description: 'The chat agent whose model answers: only chat agents are listed',
				modes: agentLocator.modes?.map((mode) =>
					mode.name === 'list'
						? {
								...mode,
								placeholder: 'Select a chat agent…',
								typeOptions: { searchListMethod: 'searchChatAgents', searchable: true },
							}
						: mode,
				),
			},
			agentEmptiedNotice,
			...chatSettingsProperties,
			modelOptionsProperty,
		],
	};

	methods = {
		credentialTest: { testAgentPlatformApi },
		listSearch: { searchChatAgents },
		// an agent given By ID that is not a chat agent is named as such in each list
		loadOptions: {
			getModels: getChatModels,
			getTools: getChatTools,
			getTemperatures: getChatTemperatures,
		},
	};

	/**
	 * No request here: n8n's fallback model takes over only from a failing call (modelSettings.ts).
	 * The SDK's internals the model relies on are checked here (sdkCheck.ts).
	 */
	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const node = this.getNode();
		const sdk = await loadAiNodeSdk(node);
		checkSdkExports(node, sdk);
		const model = createPlatformChatModel(
			sdk,
			this,
			readModelParameters(this, itemIndex),
		) satisfies ChatModel;
		return asSuppliedModel(node, sdk.supplyModel(this, model), model);
	}
}
