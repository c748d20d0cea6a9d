/**
 * Turns of one chat session in one n8n process, one after the other: a turn reads the memory,
 * runs the agent and writes the turn back before the next turn of that session reads it, so two
 * messages sent at once (two quick messages, or Batch Size above 1) continue one conversation
 * instead of each starting one. n8n runs every execution of a main or worker process in one
 * Node.js process, where this module is loaded once; turns in two queue-mode workers do not wait
 * for each other (docs/chat-memory.md).
 */
import type { ChatMemory } from './connectedMemory';

const lastTurns = new Map<unknown, Promise<void>>();

/**
 * What tells one session's memory from another's: the chat history's sessionId where it has one
 * (Redis, Postgres, … build a history object per run), else the history object itself (Simple
 * Memory keeps one per session and hands it out again).
 */
function sessionKey(memory: ChatMemory): unknown {
	const history = memory.chatHistory;
	if (history && typeof history.sessionId === 'string')
		return `${history.constructor?.name ?? 'history'}:${history.sessionId}`;
	return history ?? memory;
}

/** Waits until the session's earlier turns are over; the function returned ends this turn. */
export async function takeTurn(memory: ChatMemory): Promise<() => void> {
	const key = sessionKey(memory);
	const before = lastTurns.get(key) ?? Promise.resolve();
	let end: () => void = () => undefined;
	const turn = new Promise<void>((resolve) => (end = resolve));
	const last = before.then(async () => await turn);
	lastTurns.set(key, last);
	await before;
	let ended = false;
	return () => {
		if (ended) return;
		ended = true;
		end();
		if (lastTurns.get(key) === last) lastTurns.delete(key);
	};
}
