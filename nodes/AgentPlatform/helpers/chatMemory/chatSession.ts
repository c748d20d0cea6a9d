/**
 * The one way both chat operations (Agent → Execute, Chat Completion) use a connected Memory: one
 * object per turn of a chat session. It waits for the session's earlier turn in this process
 * (sessionTurns.ts), reads the session, puts the messages in one order (the node's instructions
 * first, then the memory's turns, then the node's History and Message), sends the instructions
 * and the history only when a conversation starts, and writes the turn back. A write that fails
 * never fails the item: the run it follows succeeded and was paid for, and a failed item could be
 * retried (Retry On Fail), starting the agent again (docs/chat-memory.md, "When something fails").
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import type { ChatMessage } from '../agents/messages';
import type { ChatMemory } from './connectedMemory';
import { connectedMemory } from './connectedMemory';
import type { SessionRead } from './session';
import { platformId, readSession, saveTurn } from './session';
import { takeTurn, turnTimeLimitMs } from './sessionTurns';

const INSTRUCTIONS = ['system', 'developer'];

/** A hint beside the node's output, where the n8n running it has them (addExecutionHints). */
function hint(ctx: IExecuteFunctions, message: string): void {
	if (typeof ctx.addExecutionHints === 'function')
		ctx.addExecutionHints({ message, location: 'outputPane' });
}

/** The node's own messages: its leading instructions, and the rest (History, then Message). */
function split(given: ChatMessage[]): { instructions: ChatMessage[]; rest: ChatMessage[] } {
	const lead = given.findIndex((message) => !INSTRUCTIONS.includes(message.role));
	if (lead === -1) return { instructions: given, rest: [] };
	return { instructions: given.slice(0, lead), rest: given.slice(lead) };
}

/** Only user and assistant turns: the platform takes instructions only as the first message. */
const turnsOf = (messages: ChatMessage[]) =>
	messages.filter((m) => m.role === 'user' || m.role === 'assistant');

/** The messages of a turn with a conversation the platform keeps (Execute). */
export interface ConversationTurn {
	messages: ChatMessage[];
	/** The conversation to continue. */
	rootId?: number;
	/** Where the platform refuses the root_id: the messages that start the conversation afresh. */
	startOver?: ChatMessage[];
}

export class ChatSession {
	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly memory: ChatMemory,
		private readonly agentId: number,
		private readonly itemIndex: number,
		private readonly stored: SessionRead,
		private readonly endTurn: () => void,
	) {}

	/**
	 * The session of the connected Memory, its earlier turns in this process over; undefined
	 * without one. `unusedBecause`: why this run does not use a connected Memory (said in a hint);
	 * `timeoutMs`: the operation's Timeout, which bounds how long the turn may keep its session.
	 */
	static async open(
		ctx: IExecuteFunctions,
		options: {
			agentId: number | string;
			itemIndex: number;
			timeoutMs: number;
			unusedBecause?: string;
		},
	): Promise<ChatSession | undefined> {
		const memory = await connectedMemory(ctx, options.itemIndex);
		if (memory === null) return undefined;
		if (memory === undefined) {
			if (options.unusedBecause === undefined) hintWithoutMemory(ctx, options.itemIndex);
			return undefined;
		}
		if (options.unusedBecause !== undefined) {
			if (options.itemIndex === 0)
				hint(ctx, `The connected Memory was not used: ${options.unusedBecause}`);
			return undefined;
		}
		const agentId = platformId(options.agentId) ?? 0;
		const turn = await takeTurn(ctx, memory, turnTimeLimitMs(options.timeoutMs));
		const endTurn = turn.end;
		if (turn.note) {
			ctx.logger.warn(turn.note, { node: ctx.getNode().name, itemIndex: options.itemIndex });
			hint(ctx, `Item ${options.itemIndex + 1}: ${turn.note}`);
		}
		try {
			const stored = await readSession(memory, agentId);
			return new ChatSession(ctx, memory, agentId, options.itemIndex, stored, endTurn);
		} catch (error) {
			endTurn();
			throw asNodeError(ctx.getNode(), error, options.itemIndex);
		}
	}

	/** The root_id of the agent's conversation in this session, if it has one. */
	get rootId(): number | undefined {
		return this.stored.rootId;
	}

	/** How many earlier messages of this agent the session holds. */
	get historyLength(): number {
		return turnsOf(this.stored.history).length;
	}

	/**
	 * A conversation the platform keeps (Execute): started with the instructions, the session's
	 * history and the node's History and Message; continued by root_id with only what the platform
	 * has not seen (the session's turns since the agent's last answer, and the Message).
	 */
	conversationTurn(given: ChatMessage[]): ConversationTurn {
		const { instructions, rest } = split(given);
		const start = [...instructions, ...turnsOf(this.stored.history), ...rest];
		if (!this.stored.rootId) return { messages: start };
		const last = rest[rest.length - 1];
		const message = last?.role === 'user' ? [last] : rest;
		return {
			messages: [...turnsOf(this.stored.unseen), ...message],
			rootId: this.stored.rootId,
			startOver: start,
		};
	}

	/** An endpoint that keeps no conversation (Chat Completion): everything, each turn, in one order. */
	historyWith(given: ChatMessage[]): ChatMessage[] {
		const { instructions, rest } = split(given);
		return [...instructions, ...turnsOf(this.stored.history), ...rest];
	}

	/**
	 * Writes the turn and ends it. Never throws: a failed write is said in the note returned (for
	 * the output item) and in a hint, and the item keeps its output.
	 */
	async save(turn: {
		input: string;
		output: string;
		rootId?: unknown;
	}): Promise<string | undefined> {
		try {
			await saveTurn(this.memory, { agentId: this.agentId, ...turn });
			return undefined;
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			const note = `The answer was kept, but the Memory could not store this turn (${reason}): the next message of this chat session starts a new conversation with the agent unless the Memory works again and holds the turn.`;
			hint(this.ctx, `Item ${this.itemIndex + 1}: ${note}`);
			return note;
		} finally {
			this.endTurn();
		}
	}

	/** Ends the turn without writing it (the run failed, or the node stopped). */
	close(): void {
		this.endTurn();
	}
}

/** Under a Chat Trigger (the item has its sessionId) without a Memory: said once, beside the output. */
function hintWithoutMemory(ctx: IExecuteFunctions, itemIndex: number): void {
	const sessionId = ctx.getInputData()[itemIndex]?.json?.sessionId;
	if (itemIndex !== 0 || typeof sessionId !== 'string' || !sessionId) return;
	hint(
		ctx,
		'Each chat message started a new conversation with the agent: connect a Memory (e.g. Simple Memory) to this node to continue one conversation per chat session',
	);
}
