/**
 * Agent → Execute's Message by node version (1.2 changed its default): after a Chat Trigger the
 * chat's message is sent without anything typed, in tool mode the AI Agent's model writes it, and
 * nodes saved with version 1 or 1.1 keep the empty default they had. The defaults are read with
 * n8n's own NodeHelpers, as its editor and engine fill in a new or saved node; the run goes through
 * n8n's real execution machinery against the emulator.
 */
import type { IDataObject, INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { AGENT_PLATFORM_NODE_TYPE, byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, chatSettings, emu, posts } from './execute.shared';

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

async function runWithChatItem(parameters: IDataObject, json: IDataObject) {
	return await runNode({
		typeVersion: 1.2,
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

describe("Agent → Execute's Message by node version", () => {
	it('a node of version 1.2 on (new nodes: 1.3) takes the chat message; as a tool, the model writes it', () => {
		expect(description.defaultVersion).toBe(1.3);
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
});
