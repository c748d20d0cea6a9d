/**
 * Which tool shapes keep their result where n8n's users chat, in real n8n 2.41.1: one published
 * workflow (Chat Trigger "available in chat", streaming) whose AI Agent runs on the Agent Platform
 * Chat Model with a tool of each shape (a Code tool returning text, one returning a number, a
 * workflow tool, n8n's Calculator and Think, the HTTP Request tools against the emulator, the
 * package's own node as a tool). Each is asked for by name in a new conversation of n8n's chat hub
 * (its REST API, as the chat page sends it) and of the public chat; the test reads what the model
 * was given as the tool's result in its second request.
 *
 * n8n 2.41.1 can hand the model an empty result `""` for a tool that ran (n8n-io/n8n#38870,
 * #33860): `buildObservation` writes `JSON.stringify('')` when the tool's ai_tool output has no
 * items. docs/chat-model.md ("Tools in n8n's chat hub") lists what this test measures.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-hub-tools.e2e.test.ts --selectProjects e2e
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { EXAMPLE_CREDENTIALS, agentPlatformCredential, loadExample } from '../../dev/n8n/examples';
import { fixtureId, log, sleep, waitFor, type N8nInstance } from '../../dev/n8n/harness';
import { chatAgentVars, describeEachLine, loadWorkflow } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-chat-hub-tools-key-51';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const CREDENTIAL = { id: fixtureId('credChatHubTool'), name: 'Agent Platform (chat hub tools)' };
const WORKFLOW = 'chatHubToolShap1';
const CHAT_WEBHOOK = '8a1b2c3d-1051-4e5f-8a00-000000000001';
const EXAMPLE = 'chat-with-a-platform-model-in-the-ai-agent';
const EXAMPLE_ID = 'exampleModel0001';
const SHAPES = [
	'codestring',
	'codenumber',
	'subworkflow',
	'Calculator',
	'Think',
	'httptool',
	'httpnode',
	'platformagent',
];

describeEachLine(['2.x'])('n8n $version: tool results in the chat hub', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const completions = () => emu.requests.filter((r) => r.path.endsWith('/chat/completions'));

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
			await fixture.activate(WORKFLOW);
			await fixture.activate(EXAMPLE_ID);
			await n8n.login();
			// Settings → Chat: the chat hub is off on a new n8n (turning it on changes no other test)
			await n8n.rest('PUT', '/chat/enabled', { enabled: true });
		},
	);

	beforeEach(() => emu.clearRequests());

	/** The tool's result as the model got it: the second request's result message. */
	async function resultGiven(tool: string): Promise<string | undefined> {
		const second = await waitFor(`the model's request after ${tool} ran`, async () => {
			const [, after] = completions();
			return after;
		});
		const messages = (second.body as { messages: IDataObject[] }).messages;
		const result = [...messages]
			.reverse()
			.find((m) => String(m.content).startsWith('Result of the tool'));
		return result === undefined ? undefined : String(result.content).replace(/^[^\n]*\n/, '');
	}

	type Conversation = {
		session: { title: string };
		conversation: {
			messages: Record<
				string,
				{ id: string; type: string; content: unknown; status: string; createdAt: string }
			>;
		};
	};

	const textOf = (m: { content: unknown }) =>
		(m.content as Array<{ content?: string }>).map((part) => part.content ?? '').join('');

	async function viaChatHub(
		tool: string,
		sessionId = randomUUID(),
		previousMessageId: string | null = null,
		{ workflow = WORKFLOW, message = `Use ${tool} on "otter".`, calls = true } = {},
	): Promise<{ result?: string; shown: string; last: string; title: string }> {
		const aiMessages = async () => {
			const { conversation, session } = await n8n.rest<Conversation>(
				'GET',
				`/chat/conversations/${sessionId}`,
			);
			const ai = Object.values(conversation.messages)
				.filter((m) => m.type === 'ai' && m.status === 'success')
				.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
			return { ai, title: session.title };
		};
		const before = previousMessageId ? (await aiMessages()).ai.length : 0;
		await n8n.rest('POST', '/chat/conversations/send', {
			messageId: randomUUID(),
			sessionId,
			message,
			model: { provider: 'n8n', workflowId: fixture.id(workflow) },
			previousMessageId,
			credentials: {},
			attachments: [],
			timeZone: 'UTC',
		});
		const result = calls ? await resultGiven(tool) : undefined;
		const answers = await waitFor('the chat hub to keep the answer', async () => {
			const { ai, title } = await aiMessages();
			// the turn is over when its last answer has text (a call's step is a message without)
			const turn = ai.slice(before);
			return turn.length > 0 && textOf(turn[turn.length - 1]) !== '' ? { ai, title } : undefined;
		});
		// the chat hub keeps a message per model answer of the turn: the text is in the last ones
		const shown = answers.ai.slice(before).map(textOf).join('');
		return { result, shown, last: answers.ai.at(-1)!.id, title: answers.title };
	}

	async function viaPublicChat(tool: string): Promise<{ result?: string; shown: string }> {
		let response: Response | undefined;
		for (let attempt = 0; attempt < 40; attempt++) {
			response = await fetch(`${n8n.baseUrl}/webhook/${fixture.webhookId(CHAT_WEBHOOK)}/chat`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					action: 'sendMessage',
					sessionId: randomUUID(),
					chatInput: `Use ${tool} on "otter".`,
				}),
			});
			if (response.status !== 404) break;
			await sleep(500);
		}
		const shown = await response!.text();
		return { result: await resultGiven(tool), shown };
	}

	test.each(SHAPES)('%s: what the model gets in the chat hub and the public chat', async (tool) => {
		const hub = await viaChatHub(tool);
		emu.clearRequests();
		const open = await viaPublicChat(tool);
		log(
			`n8n ${line.version}: ${tool}: chat hub result ${JSON.stringify(hub.result)}; public chat result ${JSON.stringify(open.result)}`,
		);
		log(`n8n ${line.version}: ${tool}: chat hub shows ${JSON.stringify(hub.shown)}`);
		// a result reached the model in both places, not an empty one
		expect(hub.result).toBeDefined();
		expect(hub.result).not.toBe('""');
		expect(open.result).not.toBe('""');
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
