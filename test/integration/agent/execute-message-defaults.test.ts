/**
 * Agent → Execute's Message by node version (1.2 and 1.4 changed its default): after a Chat
 * Trigger the chat's message is sent without anything typed, in tool mode the AI Agent's model
 * writes it, from 1.4 a run after a Manual Trigger sends the Message typed below (a text agent
 * needs none), and nodes saved with versions 1 to 1.3 keep the defaults they had. The defaults are read with
 * n8n's own NodeHelpers, as its editor and engine fill in a new or saved node; the run goes through
 * n8n's real execution machinery against the emulator.
 */
import type { IDataObject, INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { AGENT_PLATFORM_NODE_TYPE, byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, TEXT, chatSettings, emu, execute, posts } from './execute.shared';

const description = new AgentPlatform().description;

/** A new Execute node of `typeVersion`, as the editor adds it. */
function executeNode(typeVersion: number): INode {
	return {
		id: 'new',
		name: 'Agent Platform',
		type: AGENT_PLATFORM_NODE_TYPE,
		typeVersion,
		position: [0, 0],
		parameters: { resource: 'agent', operation: 'execute' },
	};
}

/** The node's type, or its tool variant: n8n builds that from the description, under the name `…Tool`. */
function nodeTypeOf(asTool: boolean): INodeTypeDescription {
	return { ...description, name: asTool ? `${description.name}Tool` : description.name };
}

/** The parameters a new Execute node of `typeVersion` starts with, as n8n fills in its defaults. */
function defaults(typeVersion: number, asTool = false): Record<string, unknown> {
	const node = executeNode(typeVersion);
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		nodeTypeOf(asTool),
	);
	return parameters ?? {};
}

const defaultMessage = (typeVersion: number, asTool = false) =>
	defaults(typeVersion, asTool).message;

async function runWithChatItem(parameters: IDataObject, json: IDataObject, typeVersion = 1.2) {
	return await runNode({
		typeVersion,
		parameters: {
			resource: 'agent',
			operation: 'execute',
			agentId: byId(String(CHAT)),
			...chatSettings(),
			...parameters,
		},
		items: [{ json }],
		credentials: credentialsFor(emu),
	});
}

/** The text agent run after a Manual Trigger (one empty item), its form's answers typed below. */
async function runTextAgent(typeVersion: number, tone: string) {
	return await runNode({
		typeVersion,
		parameters: execute(
			{ answers: { mappingMode: 'defineBelow', value: { topic: 'Sea otters', tone } } },
			TEXT,
		),
		items: [{ json: {} }],
		credentials: credentialsFor(emu),
	});
}

describe("Agent → Execute's Message by node version", () => {
	it('a node of version 1.2 on takes the chat message; as a tool, the model writes it', () => {
		expect(description.defaultVersion).toBe(1.4);
		// read from the item at run time: no expression the editor must resolve before a first run
		expect(defaults(1.2)).toMatchObject({ messageSource: 'chatTrigger' });
		expect(defaultMessage(1.2)).toBeUndefined();
		expect(defaults(1.2, true).messageSource).toBeUndefined();
		expect(defaultMessage(1.2, true)).toMatch(/^=\{\{ \$fromAI\('message', '.+', 'string'\) \}\}$/);
	});

	it("as a tool, the form says that n8n's automatic description does not name the agent", () => {
		const notice = description.properties.find((p) => p.name === 'toolDescriptionNotice')!;
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toContain('Set Manually');
		const shown = (asTool: boolean) => {
			const node = executeNode(1.2);
			return NodeHelpers.displayParameter(
				{ ...node.parameters, ...defaults(1.2, asTool) } as INodeParameters,
				notice,
				node,
				nodeTypeOf(asTool),
			);
		};
		expect(shown(true)).toBe(true);
		expect(shown(false)).toBe(false);
	});

	it('nodes saved with version 1 or 1.1 keep the empty Message they had, as a tool too', () => {
		for (const version of [1, 1.1]) {
			expect(defaultMessage(version)).toBe('');
			expect(defaultMessage(version, true)).toBe('');
			expect(defaults(version).messageSource).toBeUndefined();
		}
	});

	it('after a Chat Trigger, a version 1.2 node with no Message typed sends the chat message', async () => {
		const { error, outputs } = await runWithChatItem(
			{},
			{ sessionId: 's1', action: 'sendMessage', chatInput: 'Hello from the chat' },
		);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const body = posts()[0].body as IDataObject;
		expect(body.messages).toEqual([{ role: 'user', content: 'Hello from the chat' }]);
	});

	it('with no chat message in the item, it says so before any request; Define Below sends what is typed', async () => {
		const before = posts().length;
		const missing = await runWithChatItem({}, { text: 'not from a chat' });
		expect(missing.error?.message).toMatch(
			/No chat message to send: Message Source is "Connected Chat Trigger Node".*\(item 1\)/,
		);
		expect(posts().length).toBe(before);
		const typed = await runWithChatItem(
			{ messageSource: 'define', message: 'Typed here' },
			{ chatInput: 'ignored' },
		);
		expect(typed.error).toBeUndefined();
		expect((posts().at(-1)?.body as IDataObject).messages).toEqual([
			{ role: 'user', content: 'Typed here' },
		]);
	});

	it('a new node (1.4) takes the chat message where the item has one, else the Message below; 1.2 and 1.3 keep the chat only', () => {
		expect(defaults(1.4)).toMatchObject({ messageSource: 'chatOrBelow', message: '' });
		for (const version of [1.2, 1.3]) expect(defaults(version).messageSource).toBe('chatTrigger');
		expect(defaults(1.4, true).messageSource).toBeUndefined();
		expect(defaultMessage(1.4, true)).toMatch(/^=\{\{ \$fromAI\('message'/);
	});

	it("the chat's notices (Memory, chat files) show where the source is the chat's, not on a new node's default", () => {
		const shown = (typeVersion: number, parameters: IDataObject = {}) => {
			const node = executeNode(typeVersion);
			const values = { ...node.parameters, ...defaults(typeVersion), ...parameters };
			return description.properties
				.filter((p) => p.type === 'notice' && /^chat(Memory|Files)Notice$/.test(p.name))
				.filter((p) =>
					NodeHelpers.displayParameter(values as INodeParameters, p, node, description),
				)
				.map((p) => p.name);
		};
		expect(shown(1.3)).toEqual(['chatMemoryNotice', 'chatFilesNotice']);
		expect(shown(1.4)).toEqual([]);
		expect(shown(1.4, { messageSource: 'chatTrigger' })).toEqual([
			'chatMemoryNotice',
			'chatFilesNotice',
		]);
	});
});

describe('the first run of a new node (1.4) after a Manual Trigger or a Webhook', () => {
	/** What a Manual Trigger passes on: one empty item; a Webhook's has no chatInput either. */
	const manualItem: IDataObject = {};

	it('a text agent runs with the answers the form asks, and is sent no message', async () => {
		const { error, outputs } = await runTextAgent(1.4, 'formal');
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const body = posts().at(-1)?.body as IDataObject;
		expect(body.messages).toBeUndefined();
		expect(body.answers).toEqual({ topic: 'Sea otters', tone: 'formal' });
	});

	it("a chat agent is sent the Message typed below; a chat's item still sends the chat's message", async () => {
		const typed = await runWithChatItem({ message: 'Typed below' }, { body: {} }, 1.4);
		expect(typed.error).toBeUndefined();
		expect((posts().at(-1)?.body as IDataObject).messages).toEqual([
			{ role: 'user', content: 'Typed below' },
		]);
		const chat = await runWithChatItem(
			{ message: 'Typed below' },
			{ chatInput: 'From the chat' },
			1.4,
		);
		expect(chat.error).toBeUndefined();
		expect((posts().at(-1)?.body as IDataObject).messages).toEqual([
			{ role: 'user', content: 'From the chat' },
		]);
	});

	it('a chat agent with no Message and no chat message is refused before its run, naming the Message', async () => {
		const before = posts().length;
		const { error } = await runWithChatItem({}, manualItem, 1.4);
		expect(error?.message).toBe(
			'The agent "Chat Assistant" is a chat agent: give a Message or a History (item 1)',
		);
		expect(posts().length).toBe(before);
	});

	it('a saved 1.3 node keeps "Connected Chat Trigger Node": a chat agent still needs the chat; a text agent now runs', async () => {
		const chat = await runWithChatItem({}, manualItem, 1.3);
		expect(chat.error?.message).toMatch(
			/No chat message to send: Message Source is "Connected Chat Trigger Node"/,
		);
		const text = await runTextAgent(1.3, 'casual');
		expect(text.error).toBeUndefined();
		expect((posts().at(-1)?.body as IDataObject).messages).toBeUndefined();
	});
});
