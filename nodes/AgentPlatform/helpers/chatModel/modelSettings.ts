/**
 * The chat model's parameters as its calls use them: the picked agent (refused, before any model
 * call, when it is not a chat agent), the Model, Tools and Temperature it asks for (a value left
 * from another agent is not sent), and the options with their defaults.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	ISupplyDataFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CHAT_SETTINGS, getAgentDefinition, type AgentDefinition } from '../agents/definitions';
import { checkAnswers, readChatSettings } from '../agents/formAnswers';
import { readNumericId } from '../input/parameters';
import { currentAgentId } from '../../methods/loadOptions';
import type { ModelSettings } from './platformCalls';

/** The defaults of the node's Options, written once: the form shows them, the calls use them. */
export const MODEL_OPTION_DEFAULTS = {
	describeTools: true,
	maxRetries: 2,
	idleTimeout: 30,
	timeout: 300,
};

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
