/**
 * Which of n8n's tool shapes keep their result where n8n's users chat, in real n8n 2.x: the
 * published workflow of test/e2e/workflows/chat-hub-tools.json has a tool of each shape (a Code
 * tool returning text, one returning a number, a workflow tool, n8n's Calculator and Think, both
 * HTTP Request tools against the emulator, the package's own node as a tool). Each is asked for by
 * name in a new conversation of n8n's chat hub and of the public chat; what the model was given as
 * the tool's result (its second request at the emulator) is printed, one row a shape, in the
 * table docs/chat-model.md quotes ("Tools in n8n's chat hub"). A measurement of n8n's behaviour
 * (n8n 2.41.1 can hand the model `""` for a tool that ran: n8n-io/n8n#38870, #33860), not a test
 * of the package: nothing here fails on what n8n gives; the end-to-end suite keeps the cases the
 * package needs (test/e2e/chat-hub-tools.e2e.test.ts).
 *
 * Run: npm run measure -- test/measure/chat-hub-tools.measure.test.ts
 */
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { TOOL_SHAPES, TOOL_SHAPES_WORKFLOW, chatSurfaces } from '../e2e/chatHub';
import { chatAgentVars, describeEachLine, loadWorkflow } from '../e2e/fixtures';
import { useLineN8n, type LineN8n } from '../e2e/lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'measure-chat-hub-tools-key-52';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credHubToolsMeas'), name: 'Agent Platform (tool shapes)' };

/** A result as the table shows it: none, n8n's empty one, or its first characters. */
const shown = (result: string | undefined) =>
	result === undefined
		? 'no result reached the model'
		: result === '""'
			? 'the empty result ""'
			: JSON.stringify(result.slice(0, 60));

describeEachLine(['2.x'])('n8n $version: which tool shapes keep their result', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const { viaChatHub, viaPublicChat } = chatSurfaces(() => ({ emu, n8n, fixture }));
	const rows: string[] = [];

	useLineN8n(
		line,
		{
			tag: 'chat-hub-tools-measure',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
			],
			workflows: (started) => {
				const workflow = loadWorkflow('chat-hub-tools', {
					...chatAgentVars(started, CHAT_AGENT),
					CREDENTIAL_ID: CREDENTIAL.id,
					CREDENTIAL_NAME: CREDENTIAL.name,
					EMULATOR_URL: started.url,
					API_KEY,
					WORKSPACE_ID,
				});
				return [workflow];
			},
		},
		async (setUp) => {
			({ emu, fixture, n8n } = setUp);
			await fixture.activate(TOOL_SHAPES_WORKFLOW);
			await n8n.rest('PUT', '/chat/enabled', { enabled: true });
		},
	);

	beforeEach(() => emu.clearRequests());

	test.each(TOOL_SHAPES)('%s in the chat hub and the public chat', async (tool) => {
		const hub = await viaChatHub(tool);
		emu.clearRequests();
		const open = await viaPublicChat(tool);
		rows.push(`| ${tool} | ${shown(hub.result)} | ${shown(open.result)} |`);
		// measured: the answer came back in both places (what it carried is the row)
		expect(hub.shown).not.toBe('');
	});

	afterAll(() => {
		const date = new Date().toISOString().slice(0, 10);
		log(
			[
				`n8n ${line.version}, ${date}: what the model got as each tool's result`,
				'| tool | chat hub | public chat |',
				'|---|---|---|',
				...rows,
			].join('\n'),
		);
	});
});
