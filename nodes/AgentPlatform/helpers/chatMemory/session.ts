/**
 * One chat session (one memory, as n8n's memory nodes key it by the chat's sessionId) with one
 * agent, as the memory holds it: what of it the platform has not seen yet, the conversation's
 * root_id, and each turn written back. The root_id lives in the memory itself, in the
 * response_metadata of the agent's answer (a field neither the platform, n8n's chat nor the memory's
 * view in n8n's logs shows; additional_kwargs, where turns written before were marked, is printed
 * there): so it travels wherever the memory does (manual runs, queue-mode workers with Redis) and is
 * kept per agent (docs/chat-memory.md).
 */
import type { IDataObject } from 'n8n-workflow';

import type { ChatMemory, MemoryMessage } from './connectedMemory';
import { textOf, type ChatMessage } from '../agents/messages';
import { memoryWindow, roleOf } from './connectedMemory';

/** The key in a message's response_metadata (additional_kwargs before) that marks this node's turns. */
export const SESSION_MARK = 'agent_platform';

interface SessionMark {
	agent_id?: unknown;
	root_id?: unknown;
}

/** A chat session as read from the memory (chatSession.ts turns it into a turn). */
export interface SessionRead {
	/** The root_id of the agent's conversation in this session, if it has one. */
	rootId?: number;
	/** Messages the platform conversation has not seen: after the last turn with the agent (all when it has none). */
	unseen: ChatMessage[];
	/** Every message of the session's window that belongs to this agent or to no agent, oldest first. */
	history: ChatMessage[];
}

/** A turn's mark: in response_metadata, or in additional_kwargs where an older version wrote it. */
function markOf(message: MemoryMessage): SessionMark | undefined {
	const mark =
		message.response_metadata?.[SESSION_MARK] ?? message.additional_kwargs?.[SESSION_MARK];
	return mark && typeof mark === 'object' ? (mark as SessionMark) : undefined;
}

/** An id as the platform gives it: a positive whole number, whether kept as a number or as text. */
export function platformId(value: unknown): number | undefined {
	const id = typeof value === 'string' && value.trim() ? Number(value) : value;
	return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * The session as one agent sees it, from the memory's window: turns this node wrote for another
 * agent are left out (one session id used with two agents stays two conversations); turns from
 * elsewhere (n8n's AI Agent on the same memory, say) are history.
 */
export async function readSession(
	memory: ChatMemory,
	agentId: number | string,
): Promise<SessionRead> {
	const session: SessionRead = { unseen: [], history: [] };
	const agent = platformId(agentId);
	for (const message of await memoryWindow(memory)) {
		const mark = markOf(message);
		// ids compared as numbers: a memory may hand a mark back with its numbers as text
		if (mark && platformId(mark.agent_id) !== agent) continue;
		const role = roleOf(message);
		const content = textOf(message.content);
		if (role && content) {
			session.history.push({ role, content });
			session.unseen.push({ role, content });
		}
		const rootId = platformId(mark?.root_id);
		if (rootId) {
			session.rootId = rootId;
			session.unseen = [];
		}
	}
	return session;
}

/**
 * Writes one turn (the user's message and the agent's answer) through the memory's own
 * saveContext, so that its own message classes are used: n8n's chat shows them (Load Previous
 * Session) and the Redis or Postgres memory stores the marks with them.
 */
export async function saveTurn(
	memory: ChatMemory,
	turn: { agentId: number | string; input: string; output: string; rootId?: unknown },
): Promise<void> {
	const agentId = platformId(turn.agentId);
	const rootId = platformId(turn.rootId);
	const answerMark: IDataObject = { agent_id: agentId };
	if (rootId) answerMark.root_id = rootId;
	await memory.saveContext(
		{
			input: { content: turn.input, response_metadata: { [SESSION_MARK]: { agent_id: agentId } } },
		},
		{ output: { content: turn.output, response_metadata: { [SESSION_MARK]: answerMark } } },
	);
}

/** The user's message of this turn: the last user message the node itself was given. */
export function turnInput(messages: ChatMessage[]): string {
	for (let i = messages.length - 1; i >= 0; i--)
		if (messages[i].role === 'user') return messages[i].content;
	return '';
}

/** A start the platform refused because of its root_id: the conversation is gone or not this agent's. */
export function refusedRootId(error: unknown): boolean {
	const failure = error as { httpCode?: unknown; description?: unknown; message?: unknown } | null;
	if (failure?.httpCode !== '422' && failure?.httpCode !== '404') return false;
	return /root[ _]?id/i.test(
		`${String(failure.message ?? '')} ${String(failure.description ?? '')}`,
	);
}
