/**
 * Turns of one chat session (helpers/chatMemory/sessionTurns.ts): one after the other; a turn
 * still running at its time limit no longer blocks the next, which goes with a note; a waiting
 * turn stops when its execution is cancelled; and sessions are told apart by the memory node (its
 * workflow and name) and session id, not by the class of the memory's history. The limits here are
 * short ones given to takeTurn, as the operations give theirs (turnTimeLimitMs).
 */
import type { IExecuteFunctions, NodeTypeAndVersion } from 'n8n-workflow';

import type { ChatMemory } from '../../../nodes/AgentPlatform/helpers/chatMemory/connectedMemory';
import {
	takeTurn,
	turnTimeLimitMs,
	type TakenTurn,
} from '../../../nodes/AgentPlatform/helpers/chatMemory/sessionTurns';

/** A limit no test reaches (and short enough that a failing test leaves no wait behind for long). */
const LONG = 10_000;

/** The members takeTurn reads of n8n's execution context, for a node whose Memory is `memoryNode`. */
function runOf(
	options: { memoryNode?: string; workflowId?: string; signal?: AbortSignal } = {},
): IExecuteFunctions {
	const parents: NodeTypeAndVersion[] = [
		{
			name: options.memoryNode ?? 'Redis Chat Memory',
			type: '@n8n/n8n-nodes-langchain.memoryRedisChat',
			typeVersion: 1.5,
			disabled: false,
		},
	];
	return {
		getNode: () => ({ name: 'Agent Platform' }),
		getWorkflow: () => ({ id: options.workflowId ?? 'workflow-1', active: true }),
		getParentNodes: (_name: string, filter?: { connectionType?: string }) =>
			filter?.connectionType === 'ai_memory' ? parents : [],
		getExecutionCancelSignal: () => options.signal,
	} as unknown as IExecuteFunctions;
}

class RedisChatMessageHistory {
	constructor(readonly sessionId: string) {}
	async getMessages() {
		return [];
	}
}

/** A memory as Redis Chat Memory supplies it: a new memory and history each run. */
const redisMemory = (sessionId: string): ChatMemory => ({
	saveContext: async () => undefined,
	chatHistory: new RedisChatMessageHistory(sessionId),
});

/** Whether the turn has been given, after the work already queued has run. */
async function given(turn: Promise<TakenTurn>): Promise<boolean> {
	let done = false;
	void turn.then(
		() => (done = true),
		() => (done = true),
	);
	for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe('turns of one chat session', () => {
	it('the second waits until the first ends, and goes without a note', async () => {
		const first = await takeTurn(runOf(), redisMemory('ada'), LONG);
		const second = takeTurn(runOf(), redisMemory('ada'), LONG);
		expect(await given(second)).toBe(false);
		first.end();
		expect((await second).note).toBeUndefined();
		(await second).end();
	});

	it('a turn still running at its time limit: the next goes then, with a note naming the wait', async () => {
		const stuck = await takeTurn(runOf(), redisMemory('stuck'), 300);
		const since = Date.now();
		const next = await takeTurn(runOf(), redisMemory('stuck'), LONG);
		expect(Date.now() - since).toBeGreaterThanOrEqual(290);
		expect(next.note).toMatch(/earlier message was still being answered after 0 min/);
		expect(next.note).toMatch(/did not wait for it/);
		next.end();
		stuck.end();
	});

	it('after a stuck turn, the turn behind the next waits for the next, not for the stuck one', async () => {
		const stuck = await takeTurn(runOf(), redisMemory('chain'), 200);
		const next = takeTurn(runOf(), redisMemory('chain'), LONG);
		const third = takeTurn(runOf(), redisMemory('chain'), LONG);
		const taken = await next;
		expect(taken.note).toBeDefined();
		expect(await given(third)).toBe(false);
		taken.end();
		expect((await third).note).toBeUndefined();
		(await third).end();
		stuck.end();
	});

	it("a waiting turn whose execution is cancelled stops with n8n's words; the turn behind it still waits for the one before", async () => {
		const first = await takeTurn(runOf(), redisMemory('cancel'), LONG);
		const stop = new AbortController();
		const cancelled = takeTurn(runOf({ signal: stop.signal }), redisMemory('cancel'), LONG);
		const third = takeTurn(runOf(), redisMemory('cancel'), LONG);
		stop.abort();
		await expect(cancelled).rejects.toThrow('The execution was canceled');
		expect(await given(third)).toBe(false);
		first.end();
		expect((await third).note).toBeUndefined();
		(await third).end();
	});

	it('an ended turn ends once: a second end does not let a later turn skip the one before it', async () => {
		const first = await takeTurn(runOf(), redisMemory('twice'), LONG);
		first.end();
		const second = await takeTurn(runOf(), redisMemory('twice'), LONG);
		first.end();
		const third = takeTurn(runOf(), redisMemory('twice'), LONG);
		expect(await given(third)).toBe(false);
		second.end();
		(await third).end();
	});
});

describe('which turns wait for each other', () => {
	it('two memory nodes of one class with one session id: neither waits for the other', async () => {
		const first = await takeTurn(runOf({ memoryNode: 'Memory A' }), redisMemory('same'), LONG);
		const other = takeTurn(runOf({ memoryNode: 'Memory B' }), redisMemory('same'), LONG);
		expect(await given(other)).toBe(true);
		(await other).end();
		first.end();
	});

	it('one memory node in two workflows: neither waits for the other', async () => {
		const first = await takeTurn(runOf({ workflowId: 'w1' }), redisMemory('shared'), LONG);
		const other = takeTurn(runOf({ workflowId: 'w2' }), redisMemory('shared'), LONG);
		expect(await given(other)).toBe(true);
		(await other).end();
		first.end();
	});

	it('one memory node, two sessions: neither waits; one session, a new history each run: waits', async () => {
		const first = await takeTurn(runOf(), redisMemory('s1'), LONG);
		expect(await given(takeTurn(runOf(), redisMemory('s2'), LONG).then((t) => (t.end(), t)))).toBe(
			true,
		);
		const again = takeTurn(runOf(), redisMemory('s1'), LONG);
		expect(await given(again)).toBe(false);
		first.end();
		(await again).end();
	});

	it('a history without a session id (Simple Memory): one history object is one session', async () => {
		const history = { getMessages: async () => [] };
		const simple = (): ChatMemory => ({ saveContext: async () => undefined, chatHistory: history });
		const first = await takeTurn(runOf({ memoryNode: 'A' }), simple(), LONG);
		const sameHistory = takeTurn(runOf({ memoryNode: 'B' }), simple(), LONG);
		expect(await given(sameHistory)).toBe(false);
		const otherHistory: ChatMemory = {
			saveContext: async () => undefined,
			chatHistory: { getMessages: async () => [] },
		};
		expect(await given(takeTurn(runOf(), otherHistory, LONG).then((t) => (t.end(), t)))).toBe(true);
		first.end();
		(await sameHistory).end();
	});
});

describe("a turn's time limit", () => {
	it("is twice the operation's Timeout and five minutes more", () => {
		expect(turnTimeLimitMs(10 * 60_000)).toBe(25 * 60_000);
		expect(turnTimeLimitMs(6_000)).toBe(5 * 60_000 + 12_000);
	});
});
