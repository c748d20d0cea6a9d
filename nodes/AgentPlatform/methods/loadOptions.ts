import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isChatAgent, questionOptions, readableName } from '../helpers/agents/definitions';
import { AGENT_DEFAULT, CUSTOM_TEMPERATURE } from '../helpers/agents/formAnswers';
import type { FormAgent } from './formAgent';
import { formAgent } from './formAgent';

/** How a value chosen before, kept while its agent cannot be read, is named. */
const KEPT = ' (kept until an agent is picked)';

const AGENT_DEFAULT_OPTION: INodePropertyOptions = {
	name: 'Agent Default',
	value: AGENT_DEFAULT,
	description: 'Send nothing: the agent uses its own setting',
};

/**
 * "Agent Default" first, then the picked agent's own options (they differ per agent); while the
 * platform's rate limit holds the key, those of the definition seen before, each saying how old it
 * is (n8n shows an option's description under its name, in both lines). A value left
 * from another agent that this one does not ask for stays listed as what it is, not sent, so that
 * n8n does not mark it "not supported" in red after switching agents.
 */
function optionsOf(
	ctx: ILoadOptionsFunctions,
	form: FormAgent | undefined,
	question: string,
	named: (option: INodePropertyOptions) => INodePropertyOptions = (option) => option,
	failure?: string,
): INodePropertyOptions[] {
	const current = ctx.getCurrentNodeParameter(question);
	const left =
		typeof current === 'string' &&
		current !== '' &&
		!current.startsWith('=') &&
		current !== CUSTOM_TEMPERATURE;
	if (!form) {
		// no agent (none picked yet, or emptied by n8n after a change of credential): a value chosen
		// before stays listed, so that it is kept and not marked "not supported" until one is picked
		if (!left) return [AGENT_DEFAULT_OPTION];
		const kept = named({ name: current, value: current });
		return [
			AGENT_DEFAULT_OPTION,
			{
				name: `${kept.name}${KEPT}`,
				value: current,
				description: failure
					? `The ${question} chosen before, kept: this credential could not read the agent (${failure}). Check the credential, or pick the agent again.`
					: `The ${question} chosen before, kept while no agent is picked: pick the agent again to see its own choices`,
			},
		];
	}
	const { definition: agent, note } = form;
	const options: INodePropertyOptions[] = [
		AGENT_DEFAULT_OPTION,
		...questionOptions(agent, question)
			.map(named)
			.map((option) => (note ? { ...option, description: note } : option)),
	];
	const asked = agent.questions.some((q) => q.name === question);
	if (!asked && left) {
		options.push({
			name: `${current} (not sent to this agent)`,
			value: current,
			description: `This agent does not ask for a ${question}: the value left from another agent is not sent. Choose Agent Default to clear it.`,
		});
	}
	return options;
}

/** A list of the form's agent, read once per lookup (`failure`: why it could not be read). */
type FormList = (
	ctx: ILoadOptionsFunctions,
	form: FormAgent | undefined,
	failure?: string,
) => INodePropertyOptions[];

/** The agent's own model choices (they differ per agent). */
const modelOptions: FormList = (ctx, form, failure) =>
	optionsOf(ctx, form, 'model', undefined, failure);

/**
 * A tool the platform names by its ID alone (`web-search`, `no-tools`) is shown in words (Web
 * Search, No Tools), its ID under it; the value sent stays the ID. A model's ID is its name.
 */
function toolInWords(option: INodePropertyOptions): INodePropertyOptions {
	const id = String(option.value);
	if (option.name !== id) return option;
	return { name: readableName(id), value: id, description: `Sent as ${id}` };
}

/** `no-tools` plus the agent's own tools. */
const toolOptions: FormList = (ctx, form, failure) =>
	optionsOf(ctx, form, 'tools', toolInWords, failure);

/** The agent's own choices, and Custom for any number from 0 to 2. */
const temperatureOptions: FormList = (ctx, form, failure) => [
	...optionsOf(ctx, form, 'temperature', undefined, failure),
	{
		name: 'Custom',
		value: CUSTOM_TEMPERATURE,
		description: 'Any number from 0 to 2, typed in Custom Temperature',
	},
];

/**
 * Where the agent cannot be read (a credential the platform refuses, an unreachable platform), a
 * list with a value chosen keeps it, saying why, instead of n8n's "Error fetching options" in place
 * of the value; a list without one shows n8n's error.
 */
function keptOrThrow(
	ctx: ILoadOptionsFunctions,
	list: FormList,
	error: unknown,
): INodePropertyOptions[] {
	const options = list(ctx, undefined, (error as Error).message);
	if (options.some((option) => option.name.endsWith(KEPT))) return options;
	throw error;
}

async function readList(
	ctx: ILoadOptionsFunctions,
	list: FormList,
	read: () => Promise<FormAgent | undefined>,
): Promise<INodePropertyOptions[]> {
	let form: FormAgent | undefined;
	try {
		form = await read();
	} catch (error) {
		return keptOrThrow(ctx, list, error);
	}
	return list(ctx, form);
}

/** Execute's lists: the form's agent as its Answers settle it (formAgent.ts). */
function forExecute(lookup: string, list: FormList) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await readList(this, list, async () => await formAgent(this, lookup));
	};
}

export const getModels = forExecute('getModels', modelOptions);
export const getTools = forExecute('getTools', toolOptions);
export const getTemperatures = forExecute('getTemperatures', temperatureOptions);

/** What the chat model's lists say for an agent given By ID that is not a chat agent, or no agent. */
export const NO_CHAT_AGENT =
	'No chat agent with this ID: check the ID, or pick a chat agent from the list';

/**
 * A Model, Tools or Temperature list of the chat model's form that, for an agent given By ID that
 * is not a chat agent (or no agent), says so instead of listing options (the same read of the
 * agent's form: no request more). The edit-time half of what the model's first call checks.
 * Its form has no Answers to carry the IDs typed on the way: each list answers at once
 * (formAgent.ts), but one whose answer was pending while the person typed on keeps it. Its words
 * name no ID and no agent, so that such a list, kept from an ID on the way that is no chat agent
 * either, still says what is true of the ID typed.
 */
function forChatAgentsOnly(lookup: string, list: FormList) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		let form: FormAgent | undefined;
		try {
			form = await formAgent(this, lookup, { settle: false });
		} catch (error) {
			return keptOrThrow(this, list, error);
		}
		if (form && (form.missing || !isChatAgent(form.definition)))
			return [
				{
					name: NO_CHAT_AGENT,
					value: '',
					description: form.missing
						? 'The platform has no agent with the ID given for this credential'
						: 'The agent with the ID given is not a chat agent: only a chat agent can be the model of an AI Agent or a chain',
				},
			];
		return list(this, form);
	};
}

export const getChatModels = forChatAgentsOnly('getChatModels', modelOptions);
export const getChatTools = forChatAgentsOnly('getChatTools', toolOptions);
export const getChatTemperatures = forChatAgentsOnly('getChatTemperatures', temperatureOptions);
