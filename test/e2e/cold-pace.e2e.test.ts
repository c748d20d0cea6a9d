/**
 * A cold pace inside real n8n with the packed package: on an API key n8n has not used yet (its
 * pace, one per key in the n8n process, knows nothing of the platform, so the slow start is on:
 * the line's shared n8n serves, with a key of this file's own), a workflow's Execute (Wait for
 * Completion) is waited on by the platform for a 30 s run; a chat message 2 s later (a Webhook in
 * "Streaming" mode → Agent → Execute, Stream) is answered while the platform still waits on that
 * run, and so is an editor lookup (the agent picker), not told the key is held
 * (transport/pace/pace.ts: a request stops counting against the slow start once the platform let
 * it through). The order is the
 * platform's record; the time to the first piece is cold-pace.timing.test.ts's, in the timing stage.
 *
 * Real time (the run's 30 s are 30 s): the platform takes 1 request a second, as in production.
 *
 * Run: npx jest test/e2e/cold-pace.e2e.test.ts --selectProjects e2e
 */
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential, fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import {
	chatAgentVars,
	loadWorkflow,
	postToStreamingWebhook,
	readStreamedAnswer,
	withOwnPaths,
	describeEachLine,
} from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-cold-pace-key-7d1a';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const TEXT_AGENT = 3;
const CREDENTIAL = { id: fixtureId('credColdPace'), name: 'Agent Platform (cold pace)' };
const WORKFLOWS = { waiting: 'waitRunExecute01', chat: 'webhookStream001' };

describeEachLine()('n8n $line ($version): a cold pace beside a waiting run', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let fixture: LineN8n;
	const TAG = 'cold-pace';

	useLineN8n(
		line,
		{
			tag: TAG,
			// an API key of this file's own: a pace n8n has not used yet, however long n8n has run
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 2 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 1 }),
			],
			workflows: (started) => {
				started.configureAgent(TEXT_AGENT, { executionSeconds: 30 });
				const ids = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name };
				return [
					loadWorkflow('waiting-run-execute', { ...ids, AGENT_ID: String(TEXT_AGENT) }),
					loadWorkflow('webhook-streaming-execute', {
						...ids,
						...chatAgentVars(started, CHAT_AGENT),
					}),
				].map((workflow) => withOwnPaths(workflow, TAG));
			},
		},
		async (setUp) => {
			({ emu, n8n, fixture } = setUp);
			await fixture.activate(WORKFLOWS.waiting);
			await fixture.activate(WORKFLOWS.chat);
		},
	);

	test('a chat 2 s after a 30 s Execute (Wait) is answered while the platform waits on the run; so is the agent picker', async () => {
		emu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1 });
		const isExecute = (agentId: number) => (r: { method: string; path: string }) =>
			r.method === 'POST' && r.path === `/agents/${agentId}/execute`;
		const kicked = await n8n.postWebhook(`waiting-run-${TAG}`, {}, { registeredWithinMs: 20_000 });
		expect(kicked.status).toBe(200);
		// the platform waits on the run's request for its 30 s
		await emu.waitFor(() => emu.requests.some(isExecute(TEXT_AGENT)), 20_000);
		await new Promise((resolve) => setTimeout(resolve, 2000));

		// the run the platform waits on, as it keeps it: still running, or ended
		const waitingRun = [...emu.state.runs.values()][0];
		const chatFrom = emu.requests.length;
		const response = await postToStreamingWebhook(n8n.baseUrl, `agent-stream-${TAG}`, {
			message: 'Tell me about otters',
		});
		expect(response.status).toBe(200);
		const { text } = await readStreamedAnswer(response);
		const chatAnsweredWhileWaiting =
			waitingRun.status === 'running' || waitingRun.status === 'starting';
		// then someone opens the agent picker in the editor, the waiting run still going
		const lookup = n8n.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				nodeTypeAndVersion: { name: 'n8n-nodes-agent-platform.agentPlatform', version: 1 },
				path: 'parameters.agentId',
				methodName: 'searchAgents',
				currentNodeParameters: { resource: 'agent', operation: 'get' },
				credentials: {
					agentPlatformApi: { id: fixture.id(CREDENTIAL.id), name: CREDENTIAL.name },
				},
			},
		);
		const found = await lookup;
		const lookupAnsweredWhileWaiting =
			waitingRun.status === 'running' || waitingRun.status === 'starting';
		log(
			`n8n ${line.version}: the chat's requests reached the platform as ${emu.requests
				.slice(chatFrom)
				.filter((r) => r.path.startsWith(`/agents/${CHAT_AGENT}`))
				.map((r) => r.method)
				.join(
					', ',
				)}; the agent picker answered ${found.results.length} agents; the waiting run ${waitingRun.status}`,
		);
		// the chat's whole answer and the lookup came while the platform still waited on the 30 s run (the
		// platform's own record, not the clock: a slow machine does not make a cold pace look warm)
		expect(text).toContain('"type":"item"');
		expect(chatAnsweredWhileWaiting).toBe(true);
		// the agents, not "the platform's rate limit holds this API key"
		expect(found.results.map((r) => r.value)).toContain(String(CHAT_AGENT));
		expect(found.results[0].name).not.toMatch(/rate limit/);
		expect(lookupAnsweredWhileWaiting).toBe(true);
		// one start each
		expect(emu.requests.filter(isExecute(TEXT_AGENT))).toHaveLength(1);
		expect(emu.requests.filter(isExecute(CHAT_AGENT))).toHaveLength(1);
	});
});
