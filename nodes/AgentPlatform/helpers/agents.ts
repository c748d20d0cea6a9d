import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext } from '../transport/request';
import { apiRequest } from '../transport/request';

export interface AgentQuestion {
	type: string;
	name: string;
	description?: string;
	required?: boolean;
	options?: string[];
}

export interface AgentDefinition {
	id: number | string;
	title: string;
	type?: string;
	description?: string | null;
	questions: AgentQuestion[];
}

/** Questions the node asks for with their own parameters rather than as generic answers. */
export const DEDICATED_QUESTIONS = ['messages', 'root_id', 'model', 'tools', 'temperature'];
export const EXECUTE_ROLES = ['system', 'user', 'assistant', 'developer'];
export const CHAT_COMPLETION_ROLES = ['system', 'user', 'assistant'];
export const MAX_ATTACHMENTS = 5;

// One GET per agent per node run, however many items use it.
const definitionsByRun = new WeakMap<object, Map<string, Promise<AgentDefinition>>>();

export async function getAgentDefinition(
	this: PlatformContext,
	agentId: string,
	itemIndex?: number,
): Promise<AgentDefinition> {
	let definitions = definitionsByRun.get(this);
	if (!definitions) definitionsByRun.set(this, (definitions = new Map()));
	let definition = definitions.get(agentId);
	if (!definition) {
		definition = apiRequest
			.call(this, { method: 'GET', path: `/agents/${agentId}`, resource: `agent ${agentId}`, itemIndex })
			.then((agent) => {
				const record = agent as IDataObject;
				return {
					...record,
					id: record.id as number,
					title: String(record.title ?? `Agent ${agentId}`),
					questions: (Array.isArray(record.questions) ? record.questions : []) as AgentQuestion[],
				} as AgentDefinition;
			});
		definitions.set(agentId, definition);
		definition.catch(() => definitions?.delete(agentId));
	}
	return await definition;
}

export function questionOptions(agent: AgentDefinition, name: string): string[] {
	const question = agent.questions.find((q) => q.name === name);
	return Array.isArray(question?.options) ? question.options.map(String) : [];
}

function fail(node: INode, itemIndex: number, message: string, description?: string): never {
	throw new NodeOperationError(node, `${message} (item ${itemIndex + 1})`, { itemIndex, description });
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * Checks answers against the agent's own questions before anything is sent: required ones are
 * present, select values are among the agent's options, numbers are numbers, arrays are arrays.
 * Returns the answers with numbers and arrays in their proper types.
 */
export function checkAnswers(
	ctx: IExecuteFunctions,
	agent: AgentDefinition,
	answers: IDataObject,
	itemIndex: number,
): IDataObject {
	const node = ctx.getNode();
	const checked: IDataObject = {};
	for (const [name, raw] of Object.entries(answers)) {
		if (isEmpty(raw)) continue;
		const question = agent.questions.find((q) => q.name === name);
		let value = raw;
		if (question?.type === 'select' && Array.isArray(question.options) && question.options.length) {
			const options = question.options.map(String);
			if (!options.includes(String(value))) {
				fail(
					node,
					itemIndex,
					`"${String(value)}" is not one of the options of "${name}" for the agent "${agent.title}"`,
					`Choose one of: ${options.join(', ')}`,
				);
			}
			value = String(value);
		} else if (question?.type === 'number') {
			const number = typeof value === 'number' ? value : Number(String(value).trim());
			if (!Number.isFinite(number) || String(value).trim() === '') {
				fail(node, itemIndex, `The answer to "${name}" must be a number, not "${String(value)}"`);
			}
			value = number;
		} else if (question?.type === 'array' && typeof value === 'string') {
			try {
				value = JSON.parse(value);
			} catch {
				fail(node, itemIndex, `The answer to "${name}" must be a JSON array`, 'For example ["first", "second"]');
			}
			if (!Array.isArray(value)) fail(node, itemIndex, `The answer to "${name}" must be a JSON array`);
		}
		checked[name] = value;
	}
	for (const question of agent.questions) {
		if (question.required && question.name !== 'messages' && isEmpty(checked[question.name])) {
			fail(
				node,
				itemIndex,
				`The agent "${agent.title}" needs an answer to "${question.name}"`,
				question.description ? `${question.name}: ${question.description}` : undefined,
			);
		}
	}
	return checked;
}

/** Checks a chat history: an array of { role, content } with known roles and text content. */
export function checkMessages(
	ctx: IExecuteFunctions,
	messages: unknown,
	roles: string[],
	itemIndex: number,
	parameter: string,
): Array<{ role: string; content: string }> {
	const node = ctx.getNode();
	let list = messages;
	if (typeof list === 'string') {
		const text = list.trim();
		if (!text) return [];
		try {
			list = JSON.parse(text);
		} catch {
			fail(node, itemIndex, `${parameter} is not valid JSON`, 'Give an array like [{"role": "user", "content": "Hello"}]');
		}
	}
	if (list === undefined || list === null) return [];
	if (!Array.isArray(list)) {
		fail(node, itemIndex, `${parameter} must be an array of messages`, 'Give an array like [{"role": "user", "content": "Hello"}]');
	}
	return list.map((message, position) => {
		const role = String((message as IDataObject)?.role ?? '');
		const content = (message as IDataObject)?.content;
		if (!roles.includes(role)) {
			fail(node, itemIndex, `Message ${position + 1} of ${parameter} has the role "${role}"`, `Use one of: ${roles.join(', ')}`);
		}
		if (typeof content !== 'string') {
			fail(node, itemIndex, `Message ${position + 1} of ${parameter} has no text content`);
		}
		return { role, content };
	});
}

/**
 * The chat input of an item: History (JSON), then the History entered message by message, then
 * the Message as the user's last turn; every role and content checked.
 */
export function readChatMessages(
	ctx: IExecuteFunctions,
	itemIndex: number,
	roles: string[],
): Array<{ role: string; content: string }> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const history = checkMessages(
		ctx,
		[
			...checkMessages(ctx, options.historyJson, roles, itemIndex, 'History (JSON)'),
			...((ctx.getNodeParameter('history.messages', itemIndex, []) as IDataObject[]) ?? []),
		],
		roles,
		itemIndex,
		'History',
	);
	const message = String(ctx.getNodeParameter('message', itemIndex, '') ?? '').trim();
	return message ? [...history, { role: 'user', content: message }] : history;
}

/** The chat agent's settings chosen in the node (empty ones are left out by checkAnswers). */
export function readChatSettings(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const settings: IDataObject = {};
	for (const name of ['model', 'tools', 'temperature']) settings[name] = ctx.getNodeParameter(name, itemIndex, '');
	return settings;
}
