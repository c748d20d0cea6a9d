/**
 * Agent → Execute and Chat Completion with a Memory connected: one platform conversation per chat
 * session, through n8n's real execution machinery, LangChain's real message classes (chatMemory.ts)
 * and the emulator. Each turn is a run of its own, as each chat message is in n8n.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';

import { SESSION_MARK } from '../../../nodes/AgentPlatform/helpers/chatMemory/session';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import type { TestMemory } from '../../infra/n8n/chatMemory';
import { testMemory } from '../../infra/n8n/chatMemory';
import { HarnessNodeTypes } from '../../infra/n8n/container';
import { nodeUnderTest, runNode } from '../../infra/n8n/runNode';
import { CHAT, chatSettings, emu } from './execute.shared';

const OTHER_CHAT = 6; // the second seeded chat agent

const executes = () =>
	emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));
const completions = () =>
	emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));

/** One chat message, as a Chat Trigger's item brings it, run by a node whose Memory is `memory`. */
async function chatRun(
	memory: TestMemory | undefined,
	sessionId: string,
	chatInput: string,
	options: { agentId?: number; operation?: string; extra?: IDataObject; workflowId?: string } = {},
) {
	const agentId = options.agentId ?? CHAT;
	const operation = options.operation ?? 'execute';
	const { outputs, error, run } = await runNode({
		typeVersion: 1.2,
		parameters: {
			resource: 'agent',
			operation,
			agentId: byId(String(agentId)),
			...chatSettings(agentId),
			...(operation === 'chatCompletion' ? { message: chatInput } : {}),
			...options.extra,
		},
		items: [{ json: { sessionId, action: 'sendMessage', chatInput } }],
		credentials: credentialsFor(emu),
		memory: memory && { nodeType: memory.nodeType, workflowId: options.workflowId },
	});
	return { outputs, error, run };
}

async function chat(...args: Parameters<typeof chatRun>) {
	const { outputs, error } = await chatRun(...args);
	if (error) throw error;
	return outputs[0][0].json;
}

const sentBody = (request = executes().at(-1)) => request?.body as IDataObject;

describe('Agent → Execute with a Memory: one conversation per chat session', () => {
	beforeEach(() => emu.clearRequests());

	it('the second message continues the first conversation by root_id, one request a turn, and the agent saw the first', async () => {
		const memory = testMemory();
		const first = await chat(memory, 'session-a', 'My name is Ada.');
		expect(sentBody().root_id).toBeUndefined();
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'My name is Ada.' }]);

		const second = await chat(memory, 'session-a', 'What is my name?');
		expect(executes()).toHaveLength(2);
		// no history re-sent: the platform keeps the conversation
		expect(sentBody().root_id).toBe(first.root_id);
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'What is my name?' }]);
		expect(second.root_id).toBe(first.root_id);
		expect(second.output).toContain('Earlier in this conversation you wrote: "My name is Ada."');

		// the memory holds both turns as n8n's chat shows them, the answer marked with the root_id
		const stored = await memory.history('session-a').getMessages();
		expect(stored.map((m) => [m.getType(), m.content])).toEqual([
			['human', 'My name is Ada.'],
			['ai', first.output],
			['human', 'What is my name?'],
			['ai', second.output],
		]);
		expect((stored[3].response_metadata as Record<string, unknown>)[SESSION_MARK]).toEqual({
			agent_id: CHAT,
			root_id: first.root_id,
		});
	});

	it('another session, another workflow and another agent on the same session each start their own conversation', async () => {
		const memory = testMemory();
		const first = await chat(memory, 'session-a', 'My name is Ada.');
		await chat(memory, 'session-b', 'What is my name?');
		expect(sentBody().root_id).toBeUndefined();
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'What is my name?' }]);

		await chat(memory, 'session-a', 'What is my name?', { workflowId: 'another-workflow' });
		expect(sentBody().root_id).toBeUndefined();

		// the same session id with a second agent: neither the root_id nor the first agent's turns
		const other = await chat(memory, 'session-a', 'Who are you?', { agentId: OTHER_CHAT });
		expect(sentBody().root_id).toBeUndefined();
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'Who are you?' }]);
		expect(other.root_id).not.toBe(first.root_id);

		// and the first agent still continues its own conversation in that session
		await chat(memory, 'session-a', 'And again?');
		expect(sentBody().root_id).toBe(first.root_id);
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'And again?' }]);
		// the second agent continues its own
		await chat(memory, 'session-a', 'Once more?', { agentId: OTHER_CHAT });
		expect(sentBody().root_id).toBe(other.root_id);
	});

	it('a root_id the platform no longer accepts starts a fresh conversation with the memory, and a note', async () => {
		const memory = testMemory();
		const first = await chat(memory, 'lost', 'My name is Ada.');
		await chat(memory, 'lost', 'I live in London.');
		// the platform forgot the conversation (deleted, or another workspace's)
		for (const [id, run] of emu.state.runs)
			if (run.root_id === first.root_id) emu.state.runs.delete(id);

		emu.clearRequests();
		const fresh = await chat(memory, 'lost', 'What do you know about me?');
		const [refused, restarted] = executes();
		expect(executes()).toHaveLength(2);
		expect(refused.status).toBe(422);
		expect((refused.body as IDataObject).root_id).toBe(first.root_id);
		expect(sentBody(restarted).root_id).toBeUndefined();
		expect((sentBody(restarted).messages as IDataObject[]).map((m) => m.content)).toEqual([
			'My name is Ada.',
			expect.stringContaining('Echo from'),
			'I live in London.',
			expect.stringContaining('Echo from'),
			'What do you know about me?',
		]);
		expect(fresh.memory_note).toMatch(/no longer accepted.*new conversation was started/);
		expect(fresh.root_id).not.toBe(first.root_id);
		expect(fresh.output).toContain('"My name is Ada."; "I live in London."');

		// the next message continues the new conversation
		emu.clearRequests();
		const next = await chat(memory, 'lost', 'Thanks.');
		expect(executes()).toHaveLength(1);
		expect(sentBody().root_id).toBe(fresh.root_id);
		expect(next.memory_note).toBeUndefined();
	});

	it("a history from elsewhere (n8n's AI Agent on the same memory) starts the conversation, then it continues by root_id", async () => {
		const memory = testMemory();
		await memory
			.history('shared')
			.addMessages([
				new HumanMessage('I am planning a trip to Rome.'),
				new AIMessage('Rome is lovely in May.'),
			]);
		const first = await chat(memory, 'shared', 'What should I pack?');
		expect(sentBody().root_id).toBeUndefined();
		expect(sentBody().messages).toEqual([
			{ role: 'user', content: 'I am planning a trip to Rome.' },
			{ role: 'assistant', content: 'Rome is lovely in May.' },
			{ role: 'user', content: 'What should I pack?' },
		]);
		await chat(memory, 'shared', 'And shoes?');
		expect(sentBody().root_id).toBe(first.root_id);
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'And shoes?' }]);
	});

	it('a memory that keeps messages as JSON (Redis, Postgres) keeps the root_id with them; Continue Session (Root ID) wins', async () => {
		const memory = testMemory({ stored: true });
		const first = await chat(memory, 'redis', 'My name is Ada.');
		await chat(memory, 'redis', 'What is my name?');
		expect(sentBody().root_id).toBe(first.root_id);

		const elsewhere = await chat(memory, 'other', 'Start here.');
		await chat(memory, 'redis', 'Go on there.', {
			extra: { options: { rootId: String(elsewhere.root_id) } },
		});
		expect(sentBody().root_id).toBe(elsewhere.root_id);
		expect(sentBody().messages).toEqual([{ role: 'user', content: 'Go on there.' }]);
	});
});

describe('Chat Completion with a Memory', () => {
	beforeEach(() => emu.clearRequests());

	it("sends the session's window as the earlier messages, one request a turn, and writes each turn", async () => {
		const memory = testMemory({ k: 2 });
		for (const text of ['One.', 'Two.', 'Three.']) {
			await chat(memory, 'window', text, { operation: 'chatCompletion' });
		}
		expect(completions()).toHaveLength(3);
		const messages = (completions()[2].body as IDataObject).messages as IDataObject[];
		expect(messages.map((m) => [m.role, m.content])).toEqual([
			['user', 'One.'],
			['assistant', expect.stringContaining('Echo from')],
			['user', 'Two.'],
			['assistant', expect.stringContaining('Echo from')],
			['user', 'Three.'],
		]);
		const fourth = await chat(memory, 'window', 'Four.', { operation: 'chatCompletion' });
		// a window of 2 turns: "One." has left it
		const sent = (completions()[3].body as IDataObject).messages as IDataObject[];
		expect(sent.map((m) => m.content)).toEqual([
			'Two.',
			expect.any(String),
			'Three.',
			expect.any(String),
			'Four.',
		]);
		expect(fourth.content).toContain('Earlier in this conversation you wrote: "Two."; "Three."');
		expect(await memory.history('window').getMessages()).toHaveLength(8);
	});
});

describe('Agent → Execute under a Chat Trigger without a Memory', () => {
	it('starts a new conversation each message, and says beside the output that a Memory keeps it', async () => {
		const { outputs, error, run } = await chatRun(undefined, 'no-memory', 'Hello');
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.root_id).toBe(outputs[0][0].json.id);
		const hints = run.data.resultData.runData['Agent Platform']?.[0]?.hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			expect.stringContaining('connect a Memory (e.g. Simple Memory)'),
		]);
	});
});

describe('the Memory input on the canvas', () => {
	it('is offered for Execute and Chat Completion only, as n8n computes the inputs from the parameters', () => {
		const description = new AgentPlatform().description;
		const inputsOf = (parameters: INodeParameters) => {
			const node = { ...nodeUnderTest({ parameters, typeVersion: 1.2 }) };
			const workflow = new Workflow({
				nodes: [node],
				connections: {},
				active: false,
				nodeTypes: new HarnessNodeTypes({ [node.type]: new AgentPlatform() }),
			});
			const loaded = workflow.getNode(node.name)!;
			return NodeHelpers.getNodeInputs(workflow, loaded, description).map((input) =>
				typeof input === 'string' ? input : `${input.type} (${input.displayName})`,
			);
		};
		const withMemory = ['main', 'ai_memory (Memory)'];
		expect(inputsOf({ resource: 'agent', operation: 'execute' })).toEqual(withMemory);
		expect(inputsOf({ resource: 'agent', operation: 'chatCompletion' })).toEqual(withMemory);
		// a new node starts on Agent → Execute: its defaults are not saved
		expect(inputsOf({})).toEqual(withMemory);
		expect(inputsOf({ resource: 'agent', operation: 'get' })).toEqual(['main']);
		expect(inputsOf({ resource: 'file', operation: 'upload' })).toEqual(['main']);
	});
});
