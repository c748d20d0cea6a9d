import type { IDataObject } from 'n8n-workflow';

import type { PlatformContext } from '../../transport/types';
import { apiRequest } from '../../transport/request';
import {
	KEPT_REPLIES,
	replyKey,
	forgetReply,
	freshOrKept,
	keptReply,
	readAndKeep,
	sharedWhilePending,
} from '../lookups/keptReplies';

/** An option of a select question: plain strings, `label:value` strings or `{label, value}` objects. */
export type QuestionOption = string | number | { label?: unknown; value?: unknown; name?: unknown };

export interface AgentQuestion {
	type: string;
	name: string;
	description?: string;
	required?: boolean;
	/** The value the platform uses when no answer is sent: such a question needs no answer. */
	default?: unknown;
	options?: QuestionOption[];
}

export interface AgentDefinition {
	id: number | string;
	title: string;
	type?: string;
	description?: string | null;
	questions: AgentQuestion[];
}

/** The chat agent's settings: optional on execute, the agent's own default when nothing is sent. */
export const CHAT_SETTINGS = ['model', 'tools', 'temperature'];
/** Questions the node asks for with their own parameters rather than as generic answers. */
export const DEDICATED_QUESTIONS = ['messages', 'root_id', ...CHAT_SETTINGS];
export const MAX_ATTACHMENTS = 5;

/**
 * Agent definitions are kept in the n8n process (keptReplies.ts), so that a workflow started a
 * thousand times a day does not read its agent a thousand times: per credential (API key, Base URL
 * and workspace, as a digest: never shared between credentials) and agent. Executions reuse one
 * for AGENT_DEFINITIONS.ttlMs; the editor reads the platform's, and keeps it for them, and while
 * the platform's rate limit holds the key it uses the kept one, however old. An answer of the
 * platform that shows a definition is stale (a 422 or a 404 to a run of the agent) drops it
 * (forgetAgentDefinition). Mutable so that tests can shorten the time.
 */
export const AGENT_DEFINITIONS = {
	ttlMs: 5 * 60_000,
	/**
	 * The editor loads a pick's answer fields, their descriptions, Model, Tools and Temperature
	 * together: a read of the last seconds (or one under way) answers them all with one request.
	 */
	editorShareMs: 10_000,
};

/** The editor's reads under way, shared by the lookups of one pick. */
const editorReads = new Map<string, Promise<unknown>>();

async function definitionKey(ctx: PlatformContext, agentId: string): Promise<string> {
	return await replyKey(ctx, `agent ${agentId}`);
}

/**
 * Executions read the kept definition; the editor reads the platform's (its lookups of one pick
 * share a read), and keeps it for them.
 */
function isExecution(ctx: PlatformContext): boolean {
	return typeof (ctx as { getInputData?: unknown }).getInputData === 'function';
}

export async function getAgentDefinition(
	ctx: PlatformContext,
	agentId: string,
	itemIndex?: number,
): Promise<AgentDefinition> {
	return (await readAgentDefinition(ctx, agentId, itemIndex)).definition;
}

/**
 * The agent's definition and, when the editor is given one kept from before because the
 * platform's rate limit holds the key, a note saying how old it is (keptReplies.ts).
 */
export async function readAgentDefinition(
	ctx: PlatformContext,
	agentId: string,
	itemIndex?: number,
): Promise<{ definition: AgentDefinition; note?: string }> {
	const key = await definitionKey(ctx, agentId);
	const read = async (): Promise<AgentDefinition> => {
		const record = (await apiRequest(ctx, {
			method: 'GET',
			path: `/agents/${agentId}`,
			resource: `agent ${agentId}`,
			itemIndex,
		})) as IDataObject;
		return {
			...record,
			id: record.id as number,
			title: String(record.title ?? `Agent ${agentId}`),
			questions: (Array.isArray(record.questions)
				? record.questions
				: []) as unknown as AgentQuestion[],
		} as AgentDefinition;
	};
	if (!isExecution(ctx)) {
		const last = keptReply<AgentDefinition>(key);
		// never one old enough to be marked with its age (KEPT_REPLIES.markAfterMs)
		const shareMs = Math.min(AGENT_DEFINITIONS.editorShareMs, KEPT_REPLIES.markAfterMs);
		if (last && Date.now() - last.answeredAt < shareMs) {
			return { definition: last.value };
		}
		const { value, note } = await sharedWhilePending(editorReads, key, () =>
			freshOrKept(ctx, key, read),
		);
		return { definition: value, note };
	}
	const last = keptReply<AgentDefinition>(key);
	if (last && Date.now() - last.answeredAt < AGENT_DEFINITIONS.ttlMs)
		return { definition: last.value };
	return { definition: await readAndKeep(key, read) };
}

/**
 * Whether the agent is a chat agent: its type says so, or, from a platform that gives no type, its
 * form asks for `messages` (the one test: the chat model, Execute's messages and its Memory).
 */
export function isChatAgent(agent: AgentDefinition): boolean {
	if (agent.type) return agent.type === 'chat';
	return agent.questions.some((question) => question.name === 'messages');
}

/** What an agent that is not a chat agent is, in a sentence naming it. */
export function notChatAgent(agent: AgentDefinition, agentId: string): string {
	return `The agent "${agent.title}" (ID ${agentId}) is ${agent.type ? `a ${agent.type} agent` : 'no chat agent'}, not a chat agent`;
}

/** Drops the kept definition of an agent after an answer that shows it is stale. */
export async function forgetAgentDefinition(ctx: PlatformContext, agentId: string): Promise<void> {
	forgetReply(await definitionKey(ctx, agentId));
}

/** Whether a refused run says the agent's form changed or the agent is gone (422, 404). */
export function showsStaleDefinition(error: unknown): boolean {
	const code = (error as { httpCode?: unknown } | null)?.httpCode;
	return code === '422' || code === '404';
}

/**
 * A select question's options as label and value. Public clients show them as plain strings,
 * `label:value` strings and `{label, value}` objects (docs/platform-assumptions.md).
 */
export function optionsOfQuestion(
	question: AgentQuestion | undefined,
): Array<{ name: string; value: string }> {
	if (!Array.isArray(question?.options)) return [];
	return question.options.map((option) => {
		if (option !== null && typeof option === 'object') {
			const value = String(option.value ?? option.label ?? option.name ?? '');
			return { name: String(option.label ?? option.name ?? value), value };
		}
		const text = String(option);
		const colon = text.indexOf(':');
		// `label:value`, but not a bare value that happens to hold a colon at its ends
		if (colon > 0 && colon < text.length - 1) {
			return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
		}
		return { name: text, value: text };
	});
}

export function questionOptions(
	agent: AgentDefinition,
	name: string,
): Array<{ name: string; value: string }> {
	return optionsOfQuestion(agent.questions.find((q) => q.name === name));
}

/** `max_words` → `Max Words`, `negativeKeywords` → `Negative Keywords`: a question's name in words. */
export function readableName(name: string): string {
	return (
		name
			.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
			.split(/[\s_-]+/)
			.filter(Boolean)
			.map((word) => word[0].toUpperCase() + word.slice(1))
			.join(' ') || name
	);
}

/** A question as errors name it: its words on the form, then the platform's name, `"Max Words" (max_words)`. */
export function questionLabel(name: string): string {
	const words = readableName(name);
	return words === name ? `"${name}"` : `"${words}" (${name})`;
}
