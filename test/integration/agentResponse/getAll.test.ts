/**
 * Agent Response → Get Many against the emulator: every turn of one session in order, the runs
 * of one agent, a search text, the sort order, Return All over several pages and Limit, and the
 * checks made before any request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor, fromList } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../../dev/emulator';

let emu: PlatformEmulator;

// 15 a page whatever is asked (the documented default of lists), so that Return All pages
useEmulator(
	{ timeScale: 100, executionSeconds: 1, quiet: true, maxPerPage: 15 },
	(started) => (emu = started),
);

const chatSettings = () => emu.firstOptions(CHAT);

async function say(message: string, rootId?: unknown): Promise<IDataObject> {
	const { outputs, error } = await runNode({
		parameters: {
			resource: 'agent',
			operation: 'execute',
			agentId: byId(CHAT),
			message,
			...chatSettings(),
			...(rootId !== undefined ? { options: { rootId: String(rootId) } } : {}),
		},
		credentials: credentialsFor(emu),
	});
	expect(error).toBeUndefined();
	return outputs[0][0].json;
}

async function getMany(parameters: INodeParameters) {
	return await runNode({
		parameters: { resource: 'agentResponse', operation: 'getAll', returnAll: true, ...parameters },
		credentials: credentialsFor(emu),
	});
}

const listRequests = () =>
	emu.requests.filter((r) => r.method === 'GET' && r.path === '/agent-responses');

describe('Agent Response → Get Many', () => {
	let first: IDataObject;
	let second: IDataObject;
	let third: IDataObject;

	beforeAll(async () => {
		first = await say('Name three otters');
		await say('Something unrelated about walruses');
		second = await say('Tell me more about the second one', first.root_id);
		third = await say('And the third?', first.root_id);
	});

	it('a session: every turn, oldest first, each with its input and output', async () => {
		const { outputs, error } = await getMany({ filters: { rootId: String(first.root_id) } });
		expect(error).toBeUndefined();
		const runs = outputs[0].map((item) => item.json);
		expect(runs.map((r) => r.id)).toEqual([first.id, second.id, third.id]);
		expect(runs.map((r) => r.input)).toEqual([
			'Name three otters',
			'Tell me more about the second one',
			'And the third?',
		]);
		expect(runs.every((r) => r.root_id === first.root_id && String(r.output).length > 0)).toBe(
			true,
		);
		expect(listRequests()[0].query).toMatchObject({ root_id: String(first.root_id), sort: 'asc' });
	});

	it("Sort overrides the session's order", async () => {
		const { outputs } = await getMany({ filters: { rootId: String(first.root_id) }, sort: 'desc' });
		expect(outputs[0].map((item) => item.json.id)).toEqual([third.id, second.id, first.id]);
	});

	it('the runs of one agent picked from the list, newest first, and a search text', async () => {
		const run = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(TEXT),
				answers: { mappingMode: 'defineBelow', value: { topic: 'Kelp forests', tone: 'casual' } },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		const textRuns = await getMany({ filters: { agentId: fromList(TEXT) } });
		expect(textRuns.outputs[0].map((item) => item.json.template_id)).toEqual([TEXT]);
		const chatRuns = await getMany({ filters: { agentId: byId(CHAT) } });
		const ids = chatRuns.outputs[0].map((item) => Number(item.json.id));
		expect(ids).toEqual([...ids].sort((a, b) => b - a));
		expect(ids.length).toBeGreaterThanOrEqual(4);
		const found = await getMany({ filters: { q: 'walruses' } });
		expect(found.outputs[0].map((item) => item.json.input)).toEqual([
			'Something unrelated about walruses',
		]);
	});

	it('Return All reads every page; Limit stops early', async () => {
		for (let i = 0; i < 16; i++) await say(`Filler ${i}`);
		const all = await getMany({ filters: { agentId: byId(CHAT) } });
		expect(all.outputs[0]).toHaveLength(
			[...emu.state.runs.values()].filter((r) => r.template_id === CHAT).length,
		);
		expect(listRequests().length).toBeGreaterThanOrEqual(2);
		emu.clearRequests();
		const some = await getMany({ returnAll: false, limit: 3 });
		expect(some.outputs[0]).toHaveLength(3);
		expect(listRequests()).toHaveLength(1);
		expect(listRequests()[0].query.per_page).toBe('3');
	});

	it('refuses a Session that is not a number before any request, naming the item', async () => {
		const { error } = await getMany({ filters: { rootId: 'abc' } });
		expect(error?.message).toBe('The Session (Root ID) "abc" is not a number (item 1)');
		expect(listRequests()).toHaveLength(0);
	});
});
