/**
 * A workflow saved before Agent File's Get Many was renamed (operation `list`, node version 1)
 * still runs in real n8n 1.x and 2.x, with the packed package installed as n8n's community
 * installer would: its node lists the agent's files exactly as Get Many (version 1.1) does beside
 * it, with one request each.
 *
 * Run: npx jest test/e2e/saved-workflows.e2e.test.ts --selectProjects e2e --runInBand   (E2E_N8N_LINES=2 for one line)
 * @lines 1.x 2.x (loading: each line loads a workflow an older node version saved)
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	nodeItems,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { seedFiles } from '../infra/seedFiles';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-saved-workflows-key-3c8e51';
const WORKSPACE_ID = '42';

const CREDENTIAL = { id: fixtureId('credSavedFlows'), name: 'Agent Platform (saved workflows)' };
const WORKFLOW_ID = 'agentFileListV01';

describeEachLine()('n8n $line ($version): saved workflows', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	let linked: number[];

	useLineN8n(
		line,
		{
			tag: 'saved-workflows',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID },
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: (started) => {
				linked = seedFiles(started, 3);
				started.state.agents.get(CHAT_AGENT)!.fileIds = [...linked];
				return [
					loadWorkflow('agent-file-list-v1', {
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
						AGENT_ID: String(CHAT_AGENT),
					}),
				];
			},
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	test("Agent File's old operation value `list` runs as Get Many", async () => {
		emu.clearRequests();
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW_ID));

		const listed = nodeItems(run, 'List (old value)');
		expect(listed.map((file) => [file.id, file.agent_id])).toEqual(
			linked.map((id) => [id, CHAT_AGENT]),
		);
		expect(listed).toEqual(nodeItems(run, 'Get Many'));
		expect(emu.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /agents/${CHAT_AGENT}/files 200`,
			`GET /agents/${CHAT_AGENT}/files 200`,
		]);
	});
});
