/**
 * A tool's result where n8n's users chat, in real n8n 2.x: one published workflow (Chat Trigger
 * "available in chat", streaming) whose AI Agent runs on the Agent Platform Chat Model with tools
 * (test/e2e/workflows/chat-hub-tools.json). What n8n itself must carry: a Code tool's result
 * reaches the model in the public chat, and the example answers a tool, a code and a memory
 * question in three turns of one chat hub conversation (its REST API, as the chat page sends it).
 * Which of n8n's tool shapes keep their result there (n8n-io/n8n#38870, #33860) is a measurement:
 * `npm run measure -- test/measure/chat-hub-tools.measure.test.ts` (docs/chat-model.md quotes it).
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-hub-tools.e2e.test.ts --selectProjects e2e
 */
import { randomUUID } from 'node:crypto';
import type { PlatformEmulator } from '../../dev/emulator';
import { EXAMPLE_CREDENTIALS, agentPlatformCredential, loadExample } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { TOOL_SHAPES_WORKFLOW, chatSurfaces } from './chatHub';
import { chatAgentVars, describeEachLine, loadWorkflow } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-hub-tools-key-51';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credChatHubTool'), name: 'Agent Platform (chat hub tools)' };
const EXAMPLE = 'chat-with-a-platform-model-in-the-ai-agent';
const EXAMPLE_ID = 'exampleModel0001';
/** What the workflow's Code tool `codestring` returns (its jsCode, written by hand). */
const CODE_TOOL_RESULT = 'otter: a river animal that eats fish';

describeEachLine(['2.x'])('n8n $version: tool results in the chat hub', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const completions = () => emu.requests.filter((r) => r.path.endsWith('/chat/completions'));
	const { viaChatHub, viaPublicChat } = chatSurfaces(() => ({ emu, n8n, fixture }));

	useLineN8n(
		line,
		{
			tag: 'chat-hub-tools',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
				agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
			],
			workflows: (started) => [
				loadExample(EXAMPLE),
				loadWorkflow('chat-hub-tools', {
					...chatAgentVars(started, CHAT_AGENT),
					CREDENTIAL_ID: CREDENTIAL.id,
					CREDENTIAL_NAME: CREDENTIAL.name,
					EMULATOR_URL: started.url,
					API_KEY,
					WORKSPACE_ID,
				}),
			],
		},
		async (setUp) => {
			({ emu, fixture, n8n } = setUp);
			await fixture.activate(TOOL_SHAPES_WORKFLOW);
			await fixture.activate(EXAMPLE_ID);
			// Settings → Chat: the chat hub is off on a new n8n (turning it on changes no other test)
			await n8n.rest('PUT', '/chat/enabled', { enabled: true });
		},
	);

	beforeEach(() => emu.clearRequests());

	test("a Code tool in the public chat: its result reaches the model, and the chat shows the model's answer", async () => {
		const open = await viaPublicChat('codestring');
		log(`n8n ${line.version}: codestring in the public chat: ${JSON.stringify(open.result)}`);
		expect(open.result).toContain(CODE_TOOL_RESULT);
		expect(open.shown).toContain('a river animal that eats fish');
	});

	test('the example in the chat hub: a tool question, a code question, a memory question', async () => {
		const sessionId = randomUUID();
		const ask = async (message: string, previous: string | null, calls: boolean) => {
			emu.clearRequests();
			const turn = await viaChatHub('Glossary', sessionId, previous, {
				workflow: EXAMPLE_ID,
				message,
				calls,
			});
			log(
				`n8n ${line.version}: the example in the chat hub: ${message} → ${JSON.stringify(turn.shown)}`,
			);
			return turn;
		};
		const tool = await ask('What does otter mean?', null, true);
		expect(tool.result).toContain('a river animal that eats fish');
		expect(tool.shown).toContain('a river animal that eats fish');
		expect(tool.shown).not.toContain('[{');
		const code = await ask('Write a Python function that reverses a string', tool.last, false);
		expect(completions()).toHaveLength(1);
		expect(code.shown).toMatch(/```python\n[\s\S]*def /);
		const memory = await ask('Which word did I ask you about first?', code.last, false);
		// the memory sent the history: the first question is in the request, and in the answer
		expect(JSON.stringify(completions()[0].body)).toContain('What does otter mean?');
		expect(memory.shown).toContain('otter');
		log(`n8n ${line.version}: the chat hub's title: ${memory.title}`);
	});
});
