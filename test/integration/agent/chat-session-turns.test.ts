/**
 * Turns of a chat session (helpers/chatMemory/sessionTurns.ts) through n8n's real execution
 * machinery and the emulator, with a memory that builds a new history each run as Redis and
 * Postgres Chat Memory do (so neither the memory nor its history object lasts from one run to the
 * next): two messages of one session at once continue one conversation; the same session id under
 * another workflow's memory node does not wait; a message whose execution is stopped while it waits
 * sends nothing. The time limit of a turn that never ends: test/unit/chat-memory/session-turns.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { testMemory, type TestMemory } from '../../infra/n8n/chatMemory';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, chatSettings, emu } from './execute.shared';

const executes = () =>
	emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));

/** One chat message as a Chat Trigger's item brings it; `finishedAt`: when its run ended. */
async function message(
	memory: TestMemory,
	sessionId: string,
	chatInput: string,
	options: { workflowId?: string; cancelAfterMs?: number } = {},
) {
	const result = await runNode({
		typeVersion: 1.3,
		parameters: {
			resource: 'agent',
			operation: 'execute',
			agentId: byId(String(CHAT)),
			...chatSettings(CHAT),
		},
		items: [{ json: { sessionId, action: 'sendMessage', chatInput } }],
		credentials: credentialsFor(emu),
		memory: { nodeType: memory.nodeType, workflowId: options.workflowId },
		cancelAfterMs: options.cancelAfterMs,
	});
	const json: IDataObject = result.outputs[0]?.[0]?.json ?? {};
	return { ...result, json, finishedAt: Date.now() };
}

beforeEach(() => emu.clearRequests());

describe('turns of a chat session whose memory builds a history each run', () => {
	it('two messages at once: the second waits for the first and continues its conversation', async () => {
		const memory = testMemory({ historyPerRun: true });
		const [a, b] = await Promise.all([
			message(memory, 'at-once', 'First message.'),
			message(memory, 'at-once', 'Second message.'),
		]);
		expect(a.error ?? b.error).toBeUndefined();
		const [one, two] = executes();
		expect((one.body as IDataObject).root_id).toBeUndefined();
		expect((two.body as IDataObject).root_id).toBe(a.json.root_id);
		expect(two.at).toBeGreaterThanOrEqual(a.finishedAt - 50);
		expect(await memory.history('at-once').getMessages()).toHaveLength(4);
	});

	it('the same session id in another workflow: the two do not wait for each other', async () => {
		const memory = testMemory({ historyPerRun: true });
		const [a, b] = await Promise.all([
			message(memory, 'shared-id', 'First message.', { workflowId: 'workflow-a' }),
			message(memory, 'shared-id', 'Second message.', { workflowId: 'workflow-b' }),
		]);
		expect(a.error ?? b.error).toBeUndefined();
		const [one, two] = executes();
		// both runs were started before either ended: neither waited
		expect(Math.max(one.at, two.at)).toBeLessThan(Math.min(a.finishedAt, b.finishedAt));
		expect((one.body as IDataObject).root_id).toBeUndefined();
		expect((two.body as IDataObject).root_id).toBeUndefined();
	});

	it('a message stopped while it waits for its turn stops at once and sends nothing; the first is kept', async () => {
		const memory = testMemory({ historyPerRun: true });
		const first = message(memory, 'stopped', 'First message.');
		const stopped = await message(memory, 'stopped', 'Second message.', { cancelAfterMs: 100 });
		expect(stopped.cancelled).toBe(true);
		const a = await first;
		expect(a.error).toBeUndefined();
		expect(stopped.finishedAt).toBeLessThan(a.finishedAt);
		// had the stopped run gone on waiting, it would have sent its message once the first ended
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(executes()).toHaveLength(1);
		expect(await memory.history('stopped').getMessages()).toHaveLength(2);
	});
});
