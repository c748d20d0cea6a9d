/**
 * The AI Agent's *Force Tool Call on First Iteration* (n8n 2.40 and later) on the Agent Platform
 * Chat Model, measured in real n8n 2.41.1 with the packed package and the emulator. n8n binds the
 * tools with `{ tool_choice: 'any' }` on the first iteration (@n8n/n8n-nodes-langchain 2.41.1,
 * `agents/ToolsAgent/V3/helpers/createAgentSequence.js`); the SDK's adapter (`bindTools(tools)`,
 * @n8n/ai-utilities 0.34.1) drops that argument, the package's patch of the adapter reads it
 * (suppliedModel.ts). What reaches the platform is the measurement: with the option on, the first
 * request tells the model it must call the one tool, the answer is a call, the tool runs and the
 * second request is unrestricted; with it off, the same question is answered in prose at once. The
 * test fails when n8n stops passing the choice (the first request would carry no such words) or
 * starts forcing every iteration (the second would).
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-forced-tool.e2e.test.ts --selectProjects e2e
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { TOOL_CHOICE_OPENING } from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import { chatAgentVars, describeEachLine, loadWorkflow, withReplies } from './fixtures';
import { useLineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-forced-tool-key-58a1';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credForcedTool'), name: 'Agent Platform (forced tool)' };
const FORCED = { on: fixtureId('chatModelForceOn'), off: fixtureId('chatModelForceNo') };
const PATHS = { on: 'chat-model-forced-on', off: 'chat-model-forced-off' };
/** A question that names no tool: the stand-in answers it in prose. */
const QUESTION = 'Hello! Who are you?';
// the model's replies with the option on, by hand: the forced tool's call, then its answer
const ADD_CALL = '{"tool_call": {"name": "add", "arguments": {"a": 1, "b": 2}}}';
const ANSWER = 'One and two make 3.';

type Sent = { messages: Array<{ role: string; content: unknown }> };

describeEachLine(['2.x'])(
	"n8n $version: the AI Agent's Force Tool Call on First Iteration",
	(line) => {
		let emu: PlatformEmulator;
		let n8n: N8nInstance;
		const completions = () => emu.requests.filter((r) => r.path.endsWith('/chat/completions'));
		const sentText = (i: number) =>
			(completions()[i].body as Sent).messages.map((m) => String(m.content)).join('\n');
		const forcedWords = `${TOOL_CHOICE_OPENING} "add"`;

		useLineN8n(
			line,
			{
				tag: 'chat-model-forced-tool',
				emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
				credentials: (platform) => [
					agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
				],
				workflows: (started) =>
					(['on', 'off'] as const).map((which) =>
						loadWorkflow('chat-model-forced-tool', {
							...chatAgentVars(started, CHAT_AGENT),
							CREDENTIAL_ID: CREDENTIAL.id,
							CREDENTIAL_NAME: CREDENTIAL.name,
							WORKFLOW_ID: FORCED[which],
							PATH: PATHS[which],
							WEBHOOK_ID: `8a1b2c3d-1058-4e5f-8a00-00000000000${which === 'on' ? 1 : 2}`,
							FORCE: which === 'on',
						}),
					),
			},
			async ({ emu: started, n8n: running, fixture }) => {
				emu = started;
				n8n = running;
				for (const id of Object.values(FORCED)) await fixture.activate(id);
			},
		);

		beforeEach(() => emu.clearRequests());

		const ask = async (which: keyof typeof PATHS) =>
			await n8n.postWebhook(PATHS[which], { question: QUESTION }, { registeredWithinMs: 20_000 });

		test('on: the first request says the one tool must be called, the answer is its call, the second request is free', async () => {
			const answer = await withReplies(emu, CHAT_AGENT, [ADD_CALL, ANSWER], () => ask('on'));
			expect(answer.status).toBe(200);
			expect(completions()).toHaveLength(2);
			const first = sentText(0);
			const second = sentText(1);
			log(
				`n8n ${line.version}: forced first call: request 1 carries "${forcedWords}": ${first.includes(forcedWords)}; request 2: ${second.includes(forcedWords)}`,
			);
			expect(first).toContain(forcedWords);
			// n8n binds the tools twice on that iteration (its bindTools, then LangChain's agent's)
			const described = first.split('\n').filter((l) => l.startsWith('- add:')).length;
			log(`n8n ${line.version}: forced first call: the add tool described ${described} time(s)`);
			expect(described).toBeGreaterThan(0);
			// the tool ran on the model's call, its result went back, and nothing forces the answer
			expect(second).toContain('Result of the tool "add"');
			expect(second).not.toContain(TOOL_CHOICE_OPENING);
			expect(second).toMatch(/Result of the tool "add":\n[^\n]*3/);
			expect((answer.body as IDataObject).output).toBe(ANSWER);
		});

		test('off: the same question is answered in prose, from one request that forces nothing', async () => {
			const answer = await ask('off');
			expect(answer.status).toBe(200);
			expect(completions()).toHaveLength(1);
			expect(sentText(0)).not.toContain(TOOL_CHOICE_OPENING);
			expect(sentText(0)).toContain('- add:');
		});
	},
);
