/**
 * The chat model's parameters as its calls use them. n8n sets every connected model up before
 * the AI Agent runs, and its fallback model catches only the failures of a model's calls: setting
 * up reads the form alone (readModelParameters, no request), and what only the platform can say
 * (the key, the agent, whether it is a chat agent and what it asks for) is read at the first call
 * (resolveModelSettings), so that such a failure is the call's and the fallback takes over.
 */
import type { IDataObject, IExecuteFunctions, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	CHAT_SETTINGS,
	getAgentDefinition,
	isChatAgent,
	notChatAgent,
	questionOptions,
} from '../agents/definitions';
import { checkAnswers, readChatSettings } from '../agents/formAnswers';
import { readNumericId } from '../input/parameters';
import type { PlatformContext } from '../../transport/types';
import type { ModelSettings } from './platformCalls';

/** The defaults of the node's Options (its form shows them), also those its calls use. */
export const MODEL_OPTION_DEFAULTS = {
	describeTools: true,
	maxRetries: 2,
	idleTimeout: 30,
	timeout: 300,
};

/** The form as set-up reads it: the agent's Model, Tools and Temperature not checked yet. */
export interface ModelParameters extends Omit<ModelSettings, 'choices'> {
	/** Model, Tools and Temperature as the form gives them (checked against the agent at a call). */
	formChoices: IDataObject;
	/** The item whose parameters these are (named in an error). */
	itemIndex: number;
}

/** The form's values, read and checked without a request (bad input is named before any call). */
export function readModelParameters(
	ctx: ISupplyDataFunctions | IExecuteFunctions,
	itemIndex: number,
): ModelParameters {
	const agentId = readNumericId(ctx, 'agentId', 'agent', itemIndex);
	const options = {
		...MODEL_OPTION_DEFAULTS,
		...(ctx.getNodeParameter('options', itemIndex, {}) as IDataObject),
	};
	return {
		agentId,
		formChoices: readChatSettings(ctx, itemIndex),
		itemIndex,
		timeoutMs: Number(options.timeout) * 1000,
		idleTimeoutMs: Number(options.idleTimeout) * 1000,
		maxRetries: Number(options.maxRetries),
		describeTools: options.describeTools !== false,
	};
}

/**
 * The settings a call sends: the agent read (kept in the process, so one read serves the calls of
 * many executions), refused when it is not a chat agent, and the Model, Tools or Temperature it
 * asks for checked (a value left on the form from another agent is not sent).
 */
export async function resolveModelSettings(
	ctx: PlatformContext,
	parameters: ModelParameters,
): Promise<ModelSettings> {
	const { formChoices, itemIndex, ...rest } = parameters;
	const agent = await getAgentDefinition(ctx, parameters.agentId, itemIndex);
	if (!isChatAgent(agent)) {
		throw new NodeOperationError(ctx.getNode(), notChatAgent(agent, parameters.agentId), {
			itemIndex,
			description:
				'Only a chat agent can be the model of an AI Agent or a chain: its answers are chat messages. Nothing was sent to it. Pick a chat agent from the list in Agent, or give the ID of one.',
		});
	}
	const settings = {
		...agent,
		questions: agent.questions.filter((q) => CHAT_SETTINGS.includes(q.name)),
	};
	const sent = Object.entries(formChoices).filter(([name]) =>
		settings.questions.some((q) => q.name === name),
	);
	const choices = checkAnswers(
		ctx as IExecuteFunctions,
		settings,
		Object.fromEntries(sent),
		itemIndex,
	);
	const offered = questionOptions(agent, 'model').map((option) => option.value);
	const models = choices.model !== undefined ? [String(choices.model)] : offered;
	return { ...rest, choices, models };
}
