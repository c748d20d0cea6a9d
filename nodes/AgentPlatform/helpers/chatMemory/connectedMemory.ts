/**
 * The chat memory connected to the node's Memory input (n8n's Simple, Redis, Postgres… Chat
 * Memory), read and written without LangChain: the memory is duck-typed as LangChain's
 * BaseChatMemory (loadMemoryVariables, saveContext, chatHistory.getMessages), as n8n's memory
 * sub-nodes supply it on both n8n lines (docs/chat-memory.md).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { ChatMessage } from '../agents/messages';
import { asNodeError } from '../../transport/errors';
import { inItem } from '../input/parameters';

/** A message as LangChain keeps it: content, extra fields, and its type by one of its names. */
export interface MemoryMessage {
	content?: unknown;
	additional_kwargs?: Record<string, unknown>;
	response_metadata?: Record<string, unknown>;
	type?: unknown;
	role?: unknown;
	_getType?: () => string;
	getType?: () => string;
}

export interface ChatMemory {
	memoryKey?: string;
	loadMemoryVariables?: (values: IDataObject) => Promise<Record<string, unknown>>;
	saveContext: (input: IDataObject, output: IDataObject) => Promise<unknown>;
	chatHistory?: { getMessages?: () => Promise<MemoryMessage[]>; sessionId?: unknown };
}

/**
 * The Memory input's sub-node; undefined when none is connected, null when the node has no such
 * input: its inputs, as n8n computes them from the node's parameters (nodeInputs.ts), hold none for
 * the other operations, and none in the tool variant (n8n gives a tool no inputs; its memory is the
 * AI Agent's).
 */
export async function connectedMemory(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<ChatMemory | undefined | null> {
	const inputs = ctx.getNodeInputs();
	if (!inputs.some((input) => input.type === NodeConnectionTypes.AiMemory)) return null;
	let supplied: unknown;
	try {
		supplied = await ctx.getInputConnectionData(NodeConnectionTypes.AiMemory, itemIndex);
	} catch (error) {
		throw asNodeError(ctx.getNode(), error, itemIndex);
	}
	if (supplied === undefined || supplied === null) return undefined;
	const memory = supplied as ChatMemory;
	const readable =
		typeof memory.loadMemoryVariables === 'function' ||
		typeof memory.chatHistory?.getMessages === 'function';
	if (typeof memory.saveContext !== 'function' || !readable) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem('The node connected to Memory is not a chat memory', itemIndex),
			{
				itemIndex,
				description:
					"Connect one of n8n's chat memory nodes (Simple Memory, Redis Chat Memory, Postgres Chat Memory, …).",
			},
		);
	}
	return memory;
}

/**
 * The messages within the memory's window (its Context Window Length), oldest first; all of
 * them when the memory gives no window as messages.
 */
export async function memoryWindow(memory: ChatMemory): Promise<MemoryMessage[]> {
	if (typeof memory.loadMemoryVariables === 'function') {
		const variables = (await memory.loadMemoryVariables({})) ?? {};
		const value = variables[memory.memoryKey ?? 'chat_history'] ?? Object.values(variables)[0];
		if (Array.isArray(value)) return value as MemoryMessage[];
	}
	if (typeof memory.chatHistory?.getMessages === 'function')
		return (await memory.chatHistory.getMessages()) ?? [];
	return [];
}

/** `user`, `assistant` or `system`, from LangChain's type names; undefined for tool messages and others. */
export function roleOf(message: MemoryMessage): ChatMessage['role'] | undefined {
	let type: unknown;
	if (typeof message.getType === 'function') type = message.getType();
	else if (typeof message._getType === 'function') type = message._getType();
	else type = message.type ?? message.role;
	if (type === 'human' || type === 'user') return 'user';
	if (type === 'ai' || type === 'assistant') return 'assistant';
	if (type === 'system' || type === 'developer') return 'system';
	return undefined;
}
