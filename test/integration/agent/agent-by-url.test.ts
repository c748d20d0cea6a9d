/**
 * The agent picker's typed modes, read by the node itself (docs/design.md, "Typed IDs are read by
 * the node"): By URL takes the number after /agents/ in whatever address a person pastes, By ID a
 * whole number; anything else fails naming the parameter and the item, with nothing sent. No
 * parameter of the package asks n8n for a `validation` or `extractValue` regex: n8n (1.x and 2.x)
 * runs those in a sandbox limited to 250 ms of wall-clock time at each execution's start, and a
 * busy worker then fails the run ("Regular expression execution timed out").
 */
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { AgentPlatformTrigger } from '../../../nodes/AgentPlatform/AgentPlatformTrigger.node';
import { LmChatAgentPlatform } from '../../../nodes/AgentPlatform/LmChatAgentPlatform.node';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { loadOptions } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { triggerLifecycle } from '../../infra/n8n/trigger';
import { TEXT, emu } from './execute.shared';

const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
const sent = () => emu.requests.map((r) => `${r.method} ${r.path}`);
const getAgent = (agentId: ReturnType<typeof byId>): INodeParameters => ({
	resource: 'agent',
	operation: 'get',
	agentId,
});

describe('By URL: the agent is the number after /agents/', () => {
	// addresses as a browser's address bar gives them: written by hand, not by the node
	it.each([
		`https://app.example.com/agents/${TEXT}`,
		`https://app.example.com/agents/${TEXT}/`,
		`https://app.example.com/agents/${TEXT}/settings`,
		`https://app.example.com/agents/${TEXT}?tab=runs`,
		`https://app.example.com/agents/${TEXT}#history`,
		`  http://localhost:8080/workspaces/7/agents/${TEXT}  `,
	])('%s', async (url) => {
		const { outputs, error } = await runNode({
			parameters: getAgent(byUrl(url)),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.id).toBe(TEXT);
		expect(sent()).toEqual([`GET /agents/${TEXT}`]);
	});

	it('a URL without /agents/<id> fails naming the parameter and the item; nothing is sent', async () => {
		const url = `https://app.example.com/agent/${TEXT}`;
		const { error } = await runNode({
			parameters: getAgent(byUrl(url)),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(`The agent URL "${url}" has no /agents/<id> in it (item 1)`);
		expect(sent()).toEqual([]);
	});

	it("Agent Response → Get Many's agent filter sends the URL's agent", async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'agentResponse',
				operation: 'getAll',
				limit: 5,
				filters: { agentId: byUrl(`https://app.example.com/agents/${TEXT}/runs`) },
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(emu.requests.map((r) => r.query.agent_id)).toEqual([String(TEXT)]);
	});

	it("Execute's form lists the URL's agent's tools (one read of that agent)", async () => {
		await loadOptions('getTools', {
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byUrl(`https://app.example.com/agents/${TEXT}`),
			},
			credentials: credentialsFor(emu),
		});
		expect(sent()).toEqual([`GET /agents/${TEXT}`]);
	});

	it('the trigger registers its webhook on the URL’s agent', async () => {
		const trigger = await triggerLifecycle({
			parameters: { agentId: byUrl(`https://app.example.com/agents/${TEXT}`), options: {} },
			credentials: credentialsFor(emu),
		});
		await trigger.activate();
		expect(sent()).toContain(`POST /agents/${TEXT}/webhooks`);
		await trigger.delete();
	});
});

describe('By ID: a typed ID that is not a number reaches the node, which names it', () => {
	it.each([
		['abc', 'The agent "abc" is not a valid ID (item 1)'],
		['12abc', 'The agent "12abc" is not a valid ID (item 1)'],
		[' 7 x', 'The agent "7 x" is not a valid ID (item 1)'],
	])('%j', async (typed, message) => {
		const { error } = await runNode({
			parameters: getAgent(byId(typed)),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(message);
		expect(sent()).toEqual([]);
	});
});

/** Every property, also those inside collections and fixed collections. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...allProperties(
			(property.options ?? []).flatMap((option) =>
				'values' in option ? option.values : 'type' in option ? [option as INodeProperties] : [],
			),
		),
	]);
}

describe("no parameter asks n8n's regex sandbox", () => {
	const nodes: Array<[string, INodeTypeDescription]> = [
		['Agent Platform', new AgentPlatform().description],
		['Agent Platform Trigger', new AgentPlatformTrigger().description],
		['Agent Platform Chat Model', new LmChatAgentPlatform().description],
	];
	it.each(nodes)('%s', (_name, description) => {
		const properties = allProperties(description.properties);
		expect(properties.filter((p) => p.type === 'resourceLocator').length).toBeGreaterThan(0);
		const withRegex = properties.flatMap((p) => [
			...('extractValue' in p && p.extractValue ? [`${p.name}: extractValue`] : []),
			...(p.modes ?? []).flatMap((mode) => [
				...(mode.extractValue ? [`${p.name} ${mode.name}: extractValue`] : []),
				...(mode.validation?.length ? [`${p.name} ${mode.name}: validation`] : []),
			]),
		]);
		expect(withRegex).toEqual([]);
	});
});
