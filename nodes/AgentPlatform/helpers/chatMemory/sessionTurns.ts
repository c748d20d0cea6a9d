/**
 * Turns of one chat session in one n8n process, one after the other: a turn reads the memory,
 * runs the agent and writes the turn back before the next turn of that session reads it, so two
 * messages sent at once (two quick messages, or Batch Size above 1) continue one conversation
 * instead of each starting one. n8n runs every execution of a main or worker process in one
 * Node.js process, where this module is loaded once; turns in two queue-mode workers do not wait
 * for each other (docs/chat-memory.md).
 *
 * A turn keeps its session at most for its time limit (turnTimeLimitMs): a turn that never ends (a
 * run that hangs, an execution stopped around it) does not block its session; the next turn then
 * goes without it, and says so. A waiting turn stops when its execution is cancelled.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { cancelSignal, executionCanceled } from '../../transport/cancellation';
import { DUE, deadlineRace } from '../../transport/deadlineRace';
import type { ChatMemory } from './connectedMemory';

/** Beyond its operation's Timeout, what a turn may spend on the memory and in the pace's 429 waits. */
const TURN_MARGIN_MS = 5 * 60_000;

/** How often a waiting turn looks at the time (nodes have no timers: n8n-workflow's sleep). */
const LOOK_MS = 1000;

/**
 * How long a turn may keep its session: twice its operation's Timeout (Execute gives it to the
 * uploads, then to the run) and the margin. A turn still running then is taken as one that hangs.
 */
export const turnTimeLimitMs = (timeoutMs: number) => 2 * timeoutMs + TURN_MARGIN_MS;

interface SessionTurn {
	/** When the turn started: once the turns before it were over. */
	started: Promise<number>;
	ended: Promise<void>;
	limitMs: number;
}

const lastTurns = new Map<unknown, SessionTurn>();

/**
 * What tells one session from another: the memory node and its chat history's sessionId where the
 * history has one (Redis, Postgres, … build a memory and a history per run, so neither object
 * lasts from one run to the next: the node is named by its workflow and name), else the history
 * object itself (Simple Memory keeps one per workflow and session, and hands it out again).
 */
function sessionKey(ctx: IExecuteFunctions, memory: ChatMemory): unknown {
	const history = memory.chatHistory;
	if (!history || typeof history.sessionId !== 'string') return history ?? memory;
	const [memoryNode] = ctx
		.getParentNodes(ctx.getNode().name, { connectionType: NodeConnectionTypes.AiMemory, depth: 1 })
		.filter((parent) => !parent.disabled);
	return JSON.stringify([ctx.getWorkflow().id ?? '', memoryNode?.name ?? '', history.sessionId]);
}

/** True when the turn ended within its time limit, false when the limit passed first. */
async function endedInTime(turn: SessionTurn): Promise<boolean> {
	const until = (await turn.started) + turn.limitMs;
	const watch = deadlineRace(
		() => Date.now() >= until,
		() => Math.max(1, Math.min(LOOK_MS, until - Date.now())),
	);
	const outcome = await watch.race(turn.ended);
	void watch.stop();
	return outcome !== DUE;
}

const CANCELLED: unique symbol = Symbol('cancelled');

/** `waiting`'s value, or CANCELLED when the execution is cancelled first. */
async function unlessCancelled<T>(
	ctx: IExecuteFunctions,
	waiting: Promise<T>,
): Promise<T | typeof CANCELLED> {
	const signal = cancelSignal(ctx);
	if (!signal) return await waiting;
	let onAbort: () => void = () => undefined;
	const cancelled = new Promise<typeof CANCELLED>((resolve) => {
		onAbort = () => resolve(CANCELLED);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([waiting, cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

export interface TakenTurn {
	/** Ends the turn: the session's next turn goes. */
	end(): void;
	/** Set when the turn before was still running at its time limit and this one went without it. */
	note?: string;
}

function notWaitedFor(limitMs: number): string {
	const minutes = Math.round(limitMs / 6000) / 10;
	return `The chat session's earlier message was still being answered after ${minutes} min, longer than its Timeout allows: this message did not wait for it, so its exchange may be missing from the conversation the agent continues.`;
}

/**
 * Waits until the session's earlier turns are over, or the one before has kept the session past
 * its time limit; this turn keeps it for `limitMs` at most.
 */
export async function takeTurn(
	ctx: IExecuteFunctions,
	memory: ChatMemory,
	limitMs: number,
): Promise<TakenTurn> {
	const key = sessionKey(ctx, memory);
	const before = lastTurns.get(key);
	let end: () => void = () => undefined;
	const ended = new Promise<void>((resolve) => (end = resolve));
	const waited = before ? endedInTime(before) : Promise.resolve(true);
	const turn: SessionTurn = { started: waited.then(() => Date.now()), ended, limitMs };
	lastTurns.set(key, turn);
	let over = false;
	const endTurn = () => {
		if (over) return;
		over = true;
		end();
		// a turn cancelled while waiting stays in line until the turns before it are over
		void turn.started.then(() => {
			if (lastTurns.get(key) === turn) lastTurns.delete(key);
		});
	};
	const inTime = await unlessCancelled(ctx, waited);
	if (inTime === CANCELLED) {
		endTurn();
		throw executionCanceled(ctx.getNode());
	}
	return { end: endTurn, note: inTime || !before ? undefined : notWaitedFor(before.limitMs) };
}
