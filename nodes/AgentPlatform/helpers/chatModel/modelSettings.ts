/**
 * The chat model's parameters as its calls use them: the picked agent (refused, before any model
 * call, when it is not a chat agent), the Model, Tools and Temperature it asks for (a value left
 * from another agent is not sent), and the options with their defaults.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
	ISupplyDataFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CHAT_SETTINGS, getAgentDefinition, type AgentDefinition } from '../agents/definitions';
import { checkAnswers, readChatSettings } from '../agents/formAnswers';
import { currentAgentId, readNumericId } from '../input/parameters';
import type { ModelSettings } from './platformCalls';

/** The node's Options; their defaults, written here once, are also those its calls use. */
export const modelOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Describe Tools to the Model',
			name: 'describeTools',
			type: 'boolean',
			default: true,
			description:
				"Whether tools connected to the AI Agent are described to the platform's model in the request, and its answers read back as tool calls. The platform has no function calling of its own; off, an AI Agent with tools fails with a plain error.",
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 2,
			description:
				'How many times a call the platform did not take (rate limit, connection failed before sending) is sent again. A call the platform took is never sent twice.',
		},
		{
			displayName: 'Stream Idle Timeout (Seconds)',
			name: 'idleTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'A streamed answer silent for this long is given up with an error',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description: 'How long one call of the model may take',
		},
	],
};

export const MODEL_OPTION_DEFAULTS = Object.fromEntries(
	(modelOptions.options as INodeProperties[]).map((option) => [option.name, option.default]),
) as { describeTools: boolean; maxRetries: number; idleTimeout: number; timeout: number };

function isChatAgent(agent: AgentDefinition): boolean {
	if (agent.type) return agent.type === 'chat';
	return agent.questions.some((question) => question.name === 'messages');
}

function notChatAgent(agent: AgentDefinition, agentId: string): string {
	return `The agent "${agent.title}" (ID ${agentId}) is ${agent.type ? `a ${agent.type} agent` : 'no chat agent'}, not a chat agent`;
}

/**
 * A Model, Tools or Temperature list of the form that, for an agent given By ID that is not a chat
 * agent, says so instead of listing its options (the same read of the agent's form: no request more).
 */
export function forChatAgentsOnly(
	list: (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>,
) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const agentId = currentAgentId(this);
		if (agentId) {
			const agent = await getAgentDefinition(this, agentId);
			if (!isChatAgent(agent))
				return [
					{
						name: `${notChatAgent(agent, agentId)}: pick a chat agent`,
						value: '',
						description: 'Only a chat agent can be the model of an AI Agent or a chain',
					},
				];
		}
		return await list.call(this);
	};
}

export async function readModelSettings(
	ctx: ISupplyDataFunctions | IExecuteFunctions,
	itemIndex: number,
): Promise<ModelSettings> {
	const agentId = readNumericId(ctx, 'agentId', 'agent', itemIndex);
	const options = {
		...MODEL_OPTION_DEFAULTS,
		...(ctx.getNodeParameter('options', itemIndex, {}) as IDataObject),
	};
	const agent = await getAgentDefinition(ctx, agentId, itemIndex);
	if (!isChatAgent(agent)) {
		throw new NodeOperationError(ctx.getNode(), notChatAgent(agent, agentId), {
			itemIndex,
			description:
				'Only a chat agent can be the model of an AI Agent or a chain: its answers are chat messages. Nothing was sent to it. Pick a chat agent from the list in Agent, or give the ID of one.',
		});
	}
	// Model, Tools or Temperature left on the form from another agent go only to one that asks for them
	const asked = {
		...agent,
		questions: agent.questions.filter((q) => CHAT_SETTINGS.includes(q.name)),
	};
	const settings = Object.entries(readChatSettings(ctx, itemIndex)).filter(([name]) =>
		asked.questions.some((q) => q.name === name),
	);
	return {
		agentId,
		choices: checkAnswers(ctx as IExecuteFunctions, asked, Object.fromEntries(settings), itemIndex),
		timeoutMs: Number(options.timeout) * 1000,
		idleTimeoutMs: Number(options.idleTimeout) * 1000,
		maxRetries: Number(options.maxRetries),
		describeTools: options.describeTools !== false,
	};
}
