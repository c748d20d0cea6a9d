/**
 * The chat session as one agent reads it from a memory (helpers/chatMemory/): LangChain's own
 * message classes as n8n's memory nodes hold them (text, parts, tool messages, marks of two
 * agents), read without LangChain; and which refusals mean a lost root_id.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { ChatMemory } from '../../../nodes/AgentPlatform/helpers/chatMemory/connectedMemory';
import { textOf } from '../../../nodes/AgentPlatform/helpers/agents/messages';
import { roleOf } from '../../../nodes/AgentPlatform/helpers/chatMemory/connectedMemory';
import {
	SESSION_MARK,
	platformId,
	readSession,
	refusedRootId,
	saveTurn,
} from '../../../nodes/AgentPlatform/helpers/chatMemory/session';

const windowOf = (messages: unknown[]): ChatMemory => ({
	memoryKey: 'chat_history',
	loadMemoryVariables: async () => ({ chat_history: messages }),
	saveContext: async () => undefined,
});
const answer = (content: string, agentId: number, rootId?: number) =>
	new AIMessage({
		content,
		additional_kwargs: {
			[SESSION_MARK]: { agent_id: agentId, ...(rootId ? { root_id: rootId } : {}) },
		},
	});
const asked = (content: string, agentId: number) =>
	new HumanMessage({ content, additional_kwargs: { [SESSION_MARK]: { agent_id: agentId } } });

describe('a chat session read from the memory', () => {
	it("roles and texts of LangChain's messages: parts joined, tool messages left out", () => {
		const parts = new HumanMessage({
			content: [
				{ type: 'text', text: 'Look at this' },
				{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
			],
		});
		expect([roleOf(parts), textOf(parts.content)]).toEqual(['user', 'Look at this']);
		expect(roleOf(new SystemMessage('Be brief'))).toBe('system');
		expect(roleOf(new ToolMessage({ content: '42', tool_call_id: 'call-1' }))).toBeUndefined();
		// the stored form's plain objects, as some memories hand them back
		expect(roleOf({ type: 'ai', content: 'Hi' })).toBe('assistant');
		expect(roleOf({ role: 'user', content: 'Hi' })).toBe('user');
	});

	it("one agent's session: its own root_id, the other agent's turns left out, what came after its last answer unseen", async () => {
		const session = await readSession(
			windowOf([
				new HumanMessage('Earlier, elsewhere'),
				new AIMessage('An answer from elsewhere'),
				asked('To agent 1', 1),
				answer('From agent 1', 1, 100),
				asked('To agent 6', 6),
				answer('From agent 6', 6, 200),
				new HumanMessage('A turn the AI Agent had'),
				new ToolMessage({ content: 'tool output', tool_call_id: 'call-1' }),
				new AIMessage('The AI Agent answered'),
			]),
			'1',
		);
		expect(session.rootId).toBe(100);
		expect(session.history.map((m) => m.content)).toEqual([
			'Earlier, elsewhere',
			'An answer from elsewhere',
			'To agent 1',
			'From agent 1',
			'A turn the AI Agent had',
			'The AI Agent answered',
		]);
		expect(session.unseen).toEqual([
			{ role: 'user', content: 'A turn the AI Agent had' },
			{ role: 'assistant', content: 'The AI Agent answered' },
		]);
		const other = await readSession(
			windowOf([asked('To agent 1', 1), answer('From 1', 1, 100)]),
			'6',
		);
		expect(other).toEqual({ unseen: [], history: [] });
	});

	it('a memory that gives its window as text is read from its chat history', async () => {
		const memory: ChatMemory = {
			loadMemoryVariables: async () => ({ history: 'Human: Hi\nAI: Hello' }),
			saveContext: async () => undefined,
			chatHistory: { getMessages: async () => [new HumanMessage('Hi'), answer('Hello', 1, 7)] },
		};
		expect((await readSession(memory, '1')).rootId).toBe(7);
	});

	it('marks in response_metadata (written now) and additional_kwargs (written before) read alike; ids as numbers', async () => {
		const marked = (content: string, mark: object) =>
			new AIMessage({ content, response_metadata: { [SESSION_MARK]: mark } });
		const session = await readSession(
			windowOf([
				asked('Old question', 1),
				answer('Old answer', 1, 100),
				new HumanMessage('New question'),
				marked('New answer', { agent_id: '1', root_id: '200' }),
				marked('Not a number', { agent_id: 1, root_id: 'abc' }),
				marked('For agent 10', { agent_id: 10, root_id: 300 }),
			]),
			1,
		);
		expect(session.rootId).toBe(200);
		expect(session.history.map((m) => m.content)).not.toContain('For agent 10');
		expect(session.unseen).toEqual([{ role: 'assistant', content: 'Not a number' }]);
		expect([
			platformId('12'),
			platformId(12),
			platformId(' '),
			platformId('1.5'),
			platformId(0),
		]).toEqual([12, 12, undefined, undefined, undefined]);
	});

	it('a turn is written with numeric marks in response_metadata, none in additional_kwargs', async () => {
		const saved: unknown[] = [];
		const memory: ChatMemory = {
			loadMemoryVariables: async () => ({ chat_history: [] }),
			saveContext: async (input, output) => void saved.push(input.input, output.output),
		};
		await saveTurn(memory, { agentId: '7', input: 'Hi', output: 'Hello', rootId: '42' });
		expect(saved).toEqual([
			{ content: 'Hi', response_metadata: { [SESSION_MARK]: { agent_id: 7 } } },
			{ content: 'Hello', response_metadata: { [SESSION_MARK]: { agent_id: 7, root_id: 42 } } },
		]);
	});

	it("a lost root_id is the platform's 422 or 404 naming it; other refusals are not", () => {
		const node = { name: 'Agent Platform' } as INode;
		const refusal = (status: number, body: object, description: string) =>
			new NodeApiError(node, { status, body } as never, {
				httpCode: String(status),
				message: 'The platform refused the request',
				description,
			});
		expect(
			refusedRootId(
				refusal(422, {}, 'The platform said: root_id: The selected root id is invalid.'),
			),
		).toBe(true);
		expect(
			refusedRootId(refusal(422, {}, 'The platform said: model: The selected model is invalid.')),
		).toBe(false);
		expect(refusedRootId(refusal(500, {}, 'root_id'))).toBe(false);
	});
});
