/**
 * The Agent Platform Chat Model's form as its calls read it (helpers/chatModel/modelSettings.ts),
 * through n8n-core with the node's own parameters: a value the picked agent does not ask for is
 * not sent, an agent picked By ID that is not a chat agent is refused at the first call, before any request to it, and
 * the options' defaults are the form's.
 *
 * Run: npx jest test/integration/chatModel/chat-model-form.test.ts --selectProjects integration
 */
import type { IDataObject, IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

import { LmChatAgentPlatform } from '../../../nodes/AgentPlatform/LmChatAgentPlatform.node';
import {
	readModelParameters,
	resolveModelSettings,
} from '../../../nodes/AgentPlatform/helpers/chatModel/modelSettings';
import { credentialsFor } from '../../infra/n8n/credentials';
import { loadOptions } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, completionPosts, emu, TEXT } from './chat-model.shared';

const OTHER_CHAT = 6; // seeded chat agent

/** The chat model's form, its settings read as its first call reads them, given out as the item. */
const settingsReader: INodeType = {
	description: {
		...new LmChatAgentPlatform().description,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
	},
	async execute(this: IExecuteFunctions) {
		const settings = await resolveModelSettings(this, readModelParameters(this, 0));
		return [[{ json: settings as unknown as IDataObject }]];
	},
};

async function settingsFor(agentId: number, form: IDataObject = {}) {
	const result = await runNode({
		parameters: { agentId: { __rl: true, mode: 'id', value: String(agentId) }, ...form },
		credentials: credentialsFor(emu),
		nodeType: settingsReader,
	});
	return { error: result.error, settings: result.outputs[0]?.[0]?.json };
}

describe('Agent Platform Chat Model: the form', () => {
	it("the picked chat agent's Model, Tools and Temperature are sent; the options' defaults are the form's", async () => {
		const { model, tools } = emu.firstOptions(CHAT);
		const { settings } = await settingsFor(CHAT, { model, tools });
		expect(settings).toEqual({
			agentId: String(CHAT),
			choices: { model, tools },
			timeoutMs: 300_000,
			idleTimeoutMs: 30_000,
			maxRetries: 2,
			describeTools: true,
			// the model the answer comes from (known reasoning families stream from their first answer)
			models: [model],
		});
	});

	it('a value the agent does not ask for (left from another agent) is not sent', async () => {
		// another chat agent: the first one's form is kept from the test before
		const agent = emu.state.agents.get(OTHER_CHAT)!;
		const questions = agent.questions;
		agent.questions = questions.filter((q) => q.name !== 'tools');
		try {
			const { settings } = await settingsFor(OTHER_CHAT, { tools: 'web-search' });
			expect(settings?.choices).toEqual({});
			// Agent Default: the answer comes from one of the models the agent offers
			const offered = questions.find((q) => q.name === 'model')?.options;
			expect(settings?.models).toEqual(offered?.map(String));
			expect(offered?.length).toBeGreaterThan(0);
		} finally {
			agent.questions = questions;
		}
	});

	it('an agent picked By ID that is not a chat agent: refused in plain words before any model call', async () => {
		const { error } = await settingsFor(TEXT, {});
		expect(error?.message).toMatch(/^The agent ".+" \(ID 3\) is a text agent, not a chat agent$/);
		expect((error as Error & { description?: string }).description).toMatch(
			/Nothing was sent to it/,
		);
		expect(completionPosts()).toHaveLength(0);
	});

	it('the form names an agent given By ID that is not a chat agent in its Model list, from one read of the agent', async () => {
		const context = (agentId: number) => ({
			parameters: { agentId: { __rl: true, mode: 'id', value: String(agentId) } },
			credentials: credentialsFor(emu),
			nodeType: new LmChatAgentPlatform(),
		});
		emu.clearRequests();
		const models = await loadOptions('getModels', context(TEXT));
		expect(models).toEqual([
			expect.objectContaining({
				name: 'No chat agent with this ID: check the ID, or pick a chat agent from the list',
				value: '',
				description: expect.stringMatching(/is not a chat agent/),
			}),
		]);
		// the agent's form read once at most (the test before may have read it: it is kept)
		expect(emu.requests.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(1);
		const chat = await loadOptions('getModels', context(CHAT));
		expect(chat.map((option) => option.value)).toEqual([
			'',
			...(emu.state.agents.get(CHAT)!.questions.find((q) => q.name === 'model')!
				.options as string[]),
		]);
	});

	it('with no agent (none yet, or emptied by n8n after a change of credential), the Model, Tools and Temperature chosen stay listed, and the form says why the Agent is empty', async () => {
		const form = {
			agentId: { __rl: true, mode: 'list', value: '' },
			model: 'gpt-4o-mini',
			tools: 'no-tools',
			temperature: '0.5',
		};
		const context = {
			parameters: form,
			credentials: credentialsFor(emu),
			nodeType: new LmChatAgentPlatform(),
		};
		emu.clearRequests();
		// written by hand: Agent Default, then the value chosen before, in words
		expect((await loadOptions('getModels', context)).map((o) => [o.name, o.value])).toEqual([
			['Agent Default', ''],
			['gpt-4o-mini (kept until an agent is picked)', 'gpt-4o-mini'],
		]);
		expect((await loadOptions('getTools', context)).map((o) => o.name)).toEqual([
			'Agent Default',
			'No Tools (kept until an agent is picked)',
		]);
		expect((await loadOptions('getTemperatures', context)).map((o) => o.value)).toEqual([
			'',
			'0.5',
			'custom',
		]);
		expect(emu.requests).toHaveLength(0);
		const description = new LmChatAgentPlatform().description;
		const notice = description.properties.find((p) => p.name === 'agentEmptiedNotice')!;
		const shown = (value: string) =>
			NodeHelpers.displayParameter(
				{ ...form, agentId: { __rl: true, mode: 'list', value } } as INodeParameters,
				notice,
				{ typeVersion: 1 },
				description,
			);
		expect(shown('')).toBe(true);
		expect(shown('1')).toBe(false);
	});

	it("a credential the platform refuses: a value chosen stays, saying why; a list without one shows n8n's error", async () => {
		const refused = { ...credentialsFor(emu), apiKey: 'a-key-the-platform-refuses' };
		const agentId = { __rl: true, mode: 'list', value: String(CHAT) };
		const context = (model: string) => ({
			parameters: { agentId, model },
			credentials: refused,
			nodeType: new LmChatAgentPlatform(),
		});
		const kept = await loadOptions('getModels', context('gpt-4o-mini'));
		expect(kept.map((o) => [o.name, o.value])).toEqual([
			['Agent Default', ''],
			['gpt-4o-mini (kept until an agent is picked)', 'gpt-4o-mini'],
		]);
		expect(kept[1].description).toMatch(/this credential could not read the agent \(.+\)/);
		await expect(loadOptions('getModels', context(''))).rejects.toThrow();
	});
});
