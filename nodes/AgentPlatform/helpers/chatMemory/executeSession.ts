/**
 * Agent → Execute with a Memory connected: one platform conversation per chat session. The run
 * continues the session's root_id with only what the platform has not seen (one request a turn),
 * or starts the conversation with the session's history; a root_id the platform refuses starts a
 * fresh conversation with that history and a note in the output; each turn is written back.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import type { ChatMessage } from '../agents/messages';
import { toExecuteMessages } from '../agents/messages';
import type { ExecuteRequest } from '../runs/executeRequest';
import { runBody, runExtras, runFields } from '../runs/runBody';
import { connectedMemory } from './connectedMemory';
import { readSession, refusedRootId, saveTurn, turnInput } from './session';

export interface ExecuteSession {
	/** Sends the run's first start; a refused root_id is sent again once as a fresh conversation. */
	start<T>(send: (body: IDataObject) => Promise<T>): Promise<T>;
	/** Writes the turn from the output item (its output and root_id) into the memory. */
	save(item: IDataObject): Promise<IDataObject>;
}

/**
 * The memory's messages placed in the run's messages: after the leading instructions the node
 * was given, before its History and Message. Only user and assistant turns: the platform takes
 * instructions only as the first message.
 */
function withMemory(
	ctx: IExecuteFunctions,
	fromMemory: ChatMessage[],
	given: ChatMessage[],
	itemIndex: number,
): ChatMessage[] {
	const lead = given.findIndex((message) => message.role !== 'developer');
	const instructions = lead === -1 ? given : given.slice(0, lead);
	const rest = lead === -1 ? [] : given.slice(lead);
	const turns = fromMemory.filter((m) => m.role === 'user' || m.role === 'assistant');
	return toExecuteMessages(ctx, [...instructions, ...turns, ...rest], itemIndex);
}

/** Under a Chat Trigger (the item has its sessionId) without a Memory: said once, beside the output. */
function hintWithoutMemory(ctx: IExecuteFunctions, itemIndex: number): void {
	const sessionId = ctx.getInputData()[itemIndex]?.json?.sessionId;
	if (itemIndex !== 0 || typeof sessionId !== 'string' || !sessionId) return;
	ctx.addExecutionHints({
		message:
			'Each chat message started a new conversation with the agent: connect a Memory (e.g. Simple Memory) to this node to continue one conversation per chat session',
		location: 'outputPane',
	});
}

function bodyWith(body: IDataObject, change: IDataObject, dropRootId = false): IDataObject {
	const fields = { ...runFields(body), ...change };
	if (dropRootId) delete fields.root_id;
	return runBody(fields, runExtras(body));
}

/**
 * Undefined without a Memory, or for an agent that takes no messages (text, image and video
 * agents keep working as without one). Sets `request.body` to the session's; `shape` adds what
 * the operation adds to every body (the JSON instruction), also to a fresh conversation's.
 */
export async function executeSession(
	ctx: IExecuteFunctions,
	request: ExecuteRequest,
	itemIndex: number,
	shape: (body: IDataObject) => IDataObject,
): Promise<ExecuteSession | undefined> {
	if (!request.agent.questions.some((q) => q.name === 'messages')) return undefined;
	const memory = await connectedMemory(ctx, itemIndex);
	if (!memory) {
		if (memory === undefined) hintWithoutMemory(ctx, itemIndex);
		return undefined;
	}
	const given = (runFields(request.body).messages ?? []) as unknown as ChatMessage[];
	const input = turnInput(given);
	let note: string | undefined;
	let fresh: ((body: IDataObject) => IDataObject) | undefined;
	// Continue Session (Root ID) given on the form wins: the memory only records the turn.
	if (runFields(request.body).root_id === undefined) {
		const session = await readSession(memory, request.agentId);
		const messages = withMemory(
			ctx,
			session.rootId ? session.unseen : session.history,
			given,
			itemIndex,
		);
		request.body = bodyWith(request.body, {
			messages: messages as unknown as IDataObject[],
			...(session.rootId ? { root_id: session.rootId } : {}),
		});
		if (session.rootId) {
			const startOver = withMemory(ctx, session.history, given, itemIndex);
			fresh = (body) => bodyWith(body, { messages: startOver as unknown as IDataObject[] }, true);
			note = `The platform no longer accepted this chat's conversation (root_id ${session.rootId}): a new conversation was started with the ${session.history.length} earlier message(s) the memory holds.`;
		}
	}
	request.body = shape(request.body);
	return {
		start: async (send) => {
			try {
				return await send(request.body);
			} catch (error) {
				if (!fresh || !refusedRootId(error)) throw asNodeError(ctx.getNode(), error, itemIndex);
				request.body = shape(fresh(request.body));
				fresh = undefined;
				return await send(request.body);
			}
		},
		save: async (item) => {
			await saveTurn(memory, {
				agentId: request.agentId,
				input,
				output: String(item.output ?? ''),
				rootId: item.root_id ?? item.id,
			});
			// the note only when the fresh conversation was started (fresh was used up)
			return note && !fresh ? { ...item, memory_note: note } : item;
		},
	};
}
