/**
 * Agent → Execute with a Memory connected: the chat session's turn (chatSession.ts) in the run's
 * body. The run continues the session's root_id with only what the platform has not seen (one
 * request a turn), or starts the conversation with the session's history; a root_id the platform
 * refuses starts a fresh conversation with that history and a note in the output; the turn is
 * written back, and a write that fails keeps the output with a note.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import { isChatAgent } from '../agents/definitions';
import type { ChatMessage } from '../agents/messages';
import { toExecuteMessages } from '../agents/messages';
import type { ExecuteRequest } from '../runs/executeRequest';
import { runBody, runExtras, runFields } from '../runs/runBody';
import { ChatSession } from './chatSession';
import { refusedRootId, turnInput } from './session';

export interface ExecuteSession {
	/** Sends the run's first start; a refused root_id is sent again once as a fresh conversation. */
	start<T>(send: (body: IDataObject) => Promise<T>): Promise<T>;
	/** Writes the turn from the output item (its output and root_id) into the memory, and ends it. */
	save(item: IDataObject): Promise<IDataObject>;
	/** Ends the turn without writing it. */
	close(): void;
}

function bodyWith(body: IDataObject, change: IDataObject, dropRootId = false): IDataObject {
	const fields = { ...runFields(body), ...change };
	if (dropRootId) delete fields.root_id;
	return runBody(fields, runExtras(body));
}

/** Why a connected Memory is not used by this run; undefined when it is. */
function unusedBecause(request: ExecuteRequest, mode: string): string | undefined {
	if (!isChatAgent(request.agent))
		return `the agent "${request.agent.title}" is not a chat agent (it takes no messages), so it has no conversation to keep`;
	if (mode === 'start')
		return 'Response Mode is Start Only: the run is not waited for, so there is no answer to remember and no conversation to continue';
	return undefined;
}

/**
 * Undefined without a Memory, or where it is not used (an agent that takes no messages, Start
 * Only: said in a hint). Sets `request.body` to the session's; `shape` adds what the operation
 * adds to every body (the JSON instruction), also to a fresh conversation's.
 */
export async function executeSession(
	ctx: IExecuteFunctions,
	request: ExecuteRequest,
	itemIndex: number,
	options: { mode: string; timeoutMs: number; shape: (body: IDataObject) => IDataObject },
): Promise<ExecuteSession | undefined> {
	const session = await ChatSession.open(ctx, {
		agentId: request.agentId,
		itemIndex,
		timeoutMs: options.timeoutMs,
		unusedBecause: unusedBecause(request, options.mode),
	});
	if (!session) return undefined;
	// the session's next turn in this process waits for this one: it ends here if it cannot start
	try {
		return sessionTurn(ctx, request, itemIndex, options.shape, session);
	} catch (error) {
		session.close();
		throw asNodeError(ctx.getNode(), error, itemIndex);
	}
}

function sessionTurn(
	ctx: IExecuteFunctions,
	request: ExecuteRequest,
	itemIndex: number,
	shape: (body: IDataObject) => IDataObject,
	session: ChatSession,
): ExecuteSession {
	const given = (runFields(request.body).messages ?? []) as unknown as ChatMessage[];
	const input = turnInput(given);
	let note: string | undefined;
	let fresh: ((body: IDataObject) => IDataObject) | undefined;
	const asBody = (messages: ChatMessage[]) =>
		toExecuteMessages(ctx, messages, itemIndex) as unknown as IDataObject[];
	// Continue Session (Root ID) given on the form wins: the memory only records the turn.
	if (runFields(request.body).root_id === undefined) {
		const turn = session.conversationTurn(given);
		request.body = bodyWith(request.body, {
			messages: asBody(turn.messages),
			...(turn.rootId ? { root_id: turn.rootId } : {}),
		});
		const startOver = turn.startOver;
		if (startOver) {
			fresh = (body) => bodyWith(body, { messages: asBody(startOver) }, true);
			note = `The platform no longer accepted this chat's conversation (root_id ${turn.rootId}): a new conversation was started with the ${session.historyLength} earlier message(s) the memory holds.`;
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
			const failed = await session.save({
				input,
				output: String(item.output ?? ''),
				rootId: item.root_id ?? item.id,
			});
			// the note of a fresh start only when it was started (fresh was used up)
			const notes = [note && !fresh ? note : undefined, failed].filter(Boolean);
			return notes.length ? { ...item, memory_note: notes.join(' ') } : item;
		},
		close: () => session.close(),
	};
}
