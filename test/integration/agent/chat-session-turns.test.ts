/**
 * Turns of a chat session (helpers/chatMemory/sessionTurns.ts) through n8n's real execution
 * machinery and the emulator, with a memory that builds a new history each run as Redis and
 * Postgres Chat Memory do (so neither the memory nor its history object lasts from one run to the
 * next): two messages of one session at once continue one conversation; the same session id under
 * another workflow's memory node does not wait; a message whose execution is stopped while it waits
 * sends nothing; a message behind a turn that never ends goes once that turn's time limit passes,
 * with a hint (the time limit itself: test/unit/chat-memory/session-turns.test.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { takeTurn } from '../../../nodes/AgentPlatform/helpers/chatMemory/sessionTurns';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { testMemory, type TestMemory } from '../../infra/n8n/chatMemory';
import { MEMORY_NODE_NAME, runNode } from '../../infra/n8n/runNode';
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
	const hints = (result.run.data.resultData.runData['Agent Platform']?.[0]?.hints ?? []).map(
		(hint) => hint.message,
	);
	return { ...result, json, hints, finishedAt: Date.now() };
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

	it('a message behind a turn that never ends goes once the time limit of that turn passes, with a hint beside the output', async () => {
		const memory = testMemory({ historyPerRun: true });
		// a turn of the same memory node and session that never ends, its time limit short
		const run = {
			getNode: () => ({ name: 'Agent Platform' }),
			getWorkflow: () => ({ id: 'harness-workflow' }),
			getParentNodes: () => [{ name: MEMORY_NODE_NAME, disabled: false }],
			getExecutionCancelSignal: () => undefined,
		} as unknown as IExecuteFunctions;
		const neverEnds = await takeTurn(
			run,
			{ saveContext: async () => undefined, chatHistory: { sessionId: 'hangs' } },
			500,
		);
		const sentAt = Date.now();
		const next = await message(memory, 'hangs', 'Are you there?');
		expect(next.error).toBeUndefined();
		expect(executes()).toHaveLength(1);
		expect(executes()[0].at - sentAt).toBeGreaterThanOrEqual(490);
		expect(next.hints).toContainEqual(
			expect.stringMatching(
				/^Item 1: The chat session's earlier message was still being answered .* did not wait for it/,
			),
		);
		expect(await memory.history('hangs').getMessages()).toHaveLength(2);
		neverEnds.end();
	});
});
