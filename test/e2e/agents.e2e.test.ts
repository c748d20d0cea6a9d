/**
 * Agent → Get Many / Get, and a rejected API key, inside real n8n 1.x and 2.x, with the
 * packed package installed as n8n's community installer would, against the emulator.
 *
 * One n8n per line: the workflows are imported once and run in it as the editor runs them.
 * Run: npx jest test/e2e/agents.e2e.test.ts --selectProjects e2e   (E2E_N8N_LINES=2 for one line)
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	lastNodeItems,
	runError,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-valid-key-4f1c9a';
const WRONG_KEY = 'e2e-wrong-key-Zx81Qp7Lm2';
const WORKSPACE_ID = '42';
/** More agents than two pages of 100 (the most a list asks for) hold, so "Return All" must page. */
const SEEDED_AGENTS = 230;

const GOOD_CREDENTIAL = { id: fixtureId('credEmulator'), name: 'Agent Platform (emulator)' };
const WRONG_CREDENTIAL = { id: fixtureId('credWrongKey'), name: 'Agent Platform (wrong key)' };
const WORKFLOW = {
	getMany: 'agentGetMany0001',
	get: 'agentGet00000001',
	wrongKey: 'agentWrongKey001',
};

describeEachLine()('n8n $line ($version): agents', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	let chatAgentId: number;

	useLineN8n(
		line,
		{
			tag: 'agents',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, seed: { agents: SEEDED_AGENTS } },
			credentials: (platform) => [
				agentPlatformCredential(platform, GOOD_CREDENTIAL),
				agentPlatformCredential({ ...platform, apiKey: WRONG_KEY }, WRONG_CREDENTIAL),
			],
			workflows: (started) => {
				chatAgentId = [...started.state.agents.values()].find(
					(a) => a.type === 'chat' && a.questions.length > 0,
				)!.id;
				const good = { CREDENTIAL_ID: GOOD_CREDENTIAL.id, CREDENTIAL_NAME: GOOD_CREDENTIAL.name };
				const wrong = {
					CREDENTIAL_ID: WRONG_CREDENTIAL.id,
					CREDENTIAL_NAME: WRONG_CREDENTIAL.name,
				};
				return [
					loadWorkflow('agent-get-many', good),
					loadWorkflow('agent-get', { ...good, AGENT_ID: String(chatAgentId) }),
					loadWorkflow('agent-get-many', wrong, {
						id: WORKFLOW.wrongKey,
						name: 'Agent → Get Many (wrong API key)',
					}),
				];
			},
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	test('Agent → Get Many with Return All returns every agent, across several pages', async () => {
		const before = emu.requests.length;
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW.getMany));

		const items = lastNodeItems(run);
		const seededIds = [...emu.state.agents.keys()].sort((a, b) => a - b);
		expect(seededIds).toHaveLength(SEEDED_AGENTS);
		expect(items.map((i) => Number(i.id)).sort((a, b) => a - b)).toEqual(seededIds);

		const pages = emu.requests
			.slice(before)
			.filter((r) => r.method === 'GET' && r.path === '/agents');
		expect(pages.length).toBeGreaterThanOrEqual(2);
		const perPage = Number(pages[0].query.per_page);
		expect(pages.map((r) => Number(r.query.page))).toEqual(
			Array.from({ length: Math.ceil(SEEDED_AGENTS / perPage) }, (_, i) => i + 1),
		);
		for (const r of pages) {
			expect(r.status).toBe(200);
			expect(r.query.per_page).toBe(String(perPage));
			expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
			expect(r.headers['x-workspace-id']).toBe(WORKSPACE_ID);
		}
	});

	test('Agent → Get returns one agent with its questions', async () => {
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW.get));

		const items = lastNodeItems(run);
		expect(items).toHaveLength(1);
		const seeded = emu.state.agents.get(chatAgentId)!;
		expect(items[0]).toMatchObject({ id: chatAgentId, title: seeded.title, type: 'chat' });
		const questions = items[0].questions as Array<{ name: string }>;
		expect(Array.isArray(questions)).toBe(true);
		expect(questions.map((q) => q.name)).toEqual(seeded.questions.map((q) => q.name));
		expect(questions.map((q) => q.name)).toContain('messages');
	});

	test('a wrong API key fails the run with a plain-words message that does not show the key', async () => {
		const before = emu.requests.length;
		const result = await n8n.execute(fixture.id(WORKFLOW.wrongKey));

		expect(result.failed).toBe(true);
		const error = runError(result.run)!;
		const words = `${error.message} ${error.description ?? ''}`;
		expect(error.message).toMatch(/api key/i);
		expect(words).toMatch(/reject|invalid|not accepted|refused/i);
		// The platform was asked (once: a rejected key is not retried) and said no.
		const asked = emu.requests.slice(before).filter((r) => r.path === '/agents');
		expect(asked).toHaveLength(1);
		expect(asked[0].status).toBeGreaterThanOrEqual(401);
		expect(asked[0].status).toBeLessThanOrEqual(403);
		// The key never appears in what n8n printed (run data, logs, error stack).
		expect(result.stdout).not.toContain(WRONG_KEY);
		expect(result.stderr).not.toContain(WRONG_KEY);
	});
});
