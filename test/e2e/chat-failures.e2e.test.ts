/**
 * Every failure a chat can show, in the package's words, where n8n's users chat (chatSurfaces.ts:
 * the public chat, the chat hub, the editor's chat): the Agent Platform Chat Model under an AI
 * Agent (also the chat model example as a user edits it) and a Basic LLM Chain, and Agent →
 * Execute (Stream) under a Chat Trigger; a wrong key, a missing agent, a text agent as the model,
 * a 429 past the node's wait, a 5xx, a stream cut or silent, a refused file (what n8n's own OpenAI
 * Chat Model shows for the same failures is a measurement: test/measure/). n8n 1.x has Execute's rows in the
 * public and editor's chats (no AI node SDK, no chat hub). docs/errors-and-retries.md ("What n8n's
 * chats show") is the table of what these tests saw; the log prints it.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-failures.e2e.test.ts --selectProjects e2e --maxWorkers=1
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	loadExample,
	log,
	type WorkflowFixture,
} from '../../dev/n8n/harness';
import {
	chatHub,
	chatWorkflow,
	editorError,
	enableChatHub,
	lastExecutionId,
	node,
	publicChat,
	webhookWorkflow,
	type ChatShown,
} from './chatSurfaces';
import { holdKeyForAnHour } from './chatFailureCases';
import { describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-failures-key-3e1c';
const WORKSPACE_ID = '42';
const MISSING = 99999;
const CREDENTIALS = {
	good: { id: fixtureId('credChatFailOk'), name: 'Agent Platform (chat failures)' },
	wrongKey: { id: fixtureId('credChatFailKey'), name: 'Agent Platform (wrong key)' },
	// other spellings of the emulator's address: a pace of their own each (the pace is keyed by the
	// key and the address), held for an hour by its 429 case
	paced: { id: fixtureId('credChatFailRate'), name: 'Agent Platform (rate-limited)' },
	pacedExecute: { id: fixtureId('credChatFailRat2'), name: 'Agent Platform (rate-limited 2)' },
};
/** Every POST answered 503 (the reads before it go through). */
const SERVER_ERRORS = { serverErrorRate: 1, serverErrorStatus: 503, faultMethods: ['POST'] };
type CredentialName = keyof typeof CREDENTIALS;
const rl = (agentId: number) => ({ __rl: true, mode: 'id', value: String(agentId) });
const ref = (name: CredentialName, type = 'agentPlatformApi') => ({
	[type]: { id: CREDENTIALS[name].id, name: CREDENTIALS[name].name },
});

/** The workflows, by what they chat with: [fixture id, webhook id, root node, sub-nodes]. */
function workflows(chatOptions: { model: string; tools: string; temperature: string }) {
	const model = (agentId: number, credential: CredentialName) =>
		node(
			'Agent Platform Chat Model',
			'n8n-nodes-agent-platform.lmChatAgentPlatform',
			1,
			{
				agentId: rl(agentId),
				...chatOptions,
				options: { idleTimeout: 3 },
			},
			ref(credential),
		);
	const agent = () => node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, { options: {} });
	const chain = () => node('Basic LLM Chain', '@n8n/n8n-nodes-langchain.chainLlm', 1.7, {});
	const execute = (agentId: number, credential: CredentialName) =>
		node(
			'Agent Platform',
			'n8n-nodes-agent-platform.agentPlatform',
			1.3,
			{
				resource: 'agent',
				operation: 'execute',
				agentId: rl(agentId),
				messageSource: 'chatTrigger',
				responseMode: 'stream',
				...chatOptions,
				options: { idleTimeout: 3 },
			},
			ref(credential),
		);
	const getAgent = (agentId: number) =>
		node(
			'Agent Platform',
			'n8n-nodes-agent-platform.agentPlatform',
			1.3,
			{
				resource: 'agent',
				operation: 'get',
				agentId: rl(agentId),
			},
			ref('good'),
		);
	const lm = 'ai_languageModel';
	return {
		modelOk: chatWorkflow('chatFailModelOk1', webhook(1), agent(), [
			{ node: model(CHAT, 'good'), type: lm },
		]),
		modelKey: chatWorkflow('chatFailModelKey', webhook(2), agent(), [
			{ node: model(CHAT, 'wrongKey'), type: lm },
		]),
		modelMissing: chatWorkflow('chatFailModelMis', webhook(3), agent(), [
			{ node: model(MISSING, 'good'), type: lm },
		]),
		modelText: chatWorkflow('chatFailModelTxt', webhook(4), agent(), [
			{ node: model(TEXT, 'good'), type: lm },
		]),
		modelPaced: chatWorkflow('chatFailModelRat', webhook(5), agent(), [
			{ node: model(CHAT, 'paced'), type: lm },
		]),
		chainMissing: chatWorkflow('chatFailChainMis', webhook(6), chain(), [
			{ node: model(MISSING, 'good'), type: lm },
		]),
		executeOk: chatWorkflow('chatFailExecOk01', webhook(7), execute(CHAT, 'good')),
		executeKey: chatWorkflow('chatFailExecKey1', webhook(8), execute(CHAT, 'wrongKey')),
		executeMissing: chatWorkflow('chatFailExecMis1', webhook(9), execute(MISSING, 'good')),
		executePaced: chatWorkflow('chatFailExecRat1', webhook(10), execute(CHAT, 'pacedExecute')),
		outsideChat: webhookWorkflow(
			'chatFailOutside1',
			OUTSIDE_CHAT_PATH,
			webhook(16),
			getAgent(MISSING),
		),
		exampleMissing: exampleWith('chatFailExampMis', webhook(14), MISSING),
		exampleText: exampleWith('chatFailExampTxt', webhook(15), TEXT),
	};
}
/** The path of the Webhook in front of a node outside any chat (this file's own in a shared n8n). */
const OUTSIDE_CHAT_PATH = 'chat-failures-outside-a-chat';
/**
 * The chat model example as a new user edits it: its Agent Platform Chat Model given another
 * agent (AI Agent 3 with a memory and a Code tool, as the example has them).
 */
function exampleWith(id: string, webhookId: string, agentId: number): WorkflowFixture {
	const example = loadExample('chat-with-a-platform-model-in-the-ai-agent');
	return {
		...example,
		id,
		nodes: example.nodes.map((n) =>
			n.type.endsWith('lmChatAgentPlatform')
				? {
						...n,
						parameters: {
							...n.parameters,
							agentId: rl(agentId),
						},
						credentials: ref('good'),
					}
				: n.type.endsWith('chatTrigger')
					? { ...n, webhookId, parameters: { ...n.parameters, availableInChat: true } }
					: n,
		),
	};
}
type Flow = keyof ReturnType<typeof workflows>;
function webhook(n: number): string {
	return `5c0e1a2b-7f00-4a1c-9e00-${String(n).padStart(12, '0')}`;
}

describeEachLine(['1.x', '2.x'])(
	'n8n $line ($version): what each chat shows when something fails',
	(line) => {
		let emu: PlatformEmulator;
		let fixture: LineN8n;
		let flows: ReturnType<typeof workflows>;
		/** What each surface showed, for the docs' table (logged at the end). */
		const seen: string[] = [];
		// n8n 1.x has no AI node SDK (the chat model) and no chat hub: Agent → Execute there
		const two = line.line === '2.x';
		const twoOnly = two ? describe : describe.skip;
		const testOnTwo = two ? test : test.skip;

		useLineN8n(
			line,
			{
				tag: 'chat-failures',
				emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
				credentials: (platform) => {
					const wrong = { ...platform, apiKey: 'not-the-key' };
					const other = (host: string) => ({
						...platform,
						url: platform.url.replace('127.0.0.1', host),
					});
					return [
						agentPlatformCredential(platform, CREDENTIALS.good),
						agentPlatformCredential(wrong, CREDENTIALS.wrongKey),
						agentPlatformCredential(other('localhost'), CREDENTIALS.paced),
						agentPlatformCredential(other('LOCALHOST'), CREDENTIALS.pacedExecute),
					];
				},
				workflows: (started) => {
					flows = workflows(started.firstOptions(CHAT));
					return Object.values(flows);
				},
			},
			async (setUp) => {
				({ emu, fixture } = setUp);
				for (const [name, flow] of Object.entries(flows))
					if (two || name.startsWith('execute') || name === 'outsideChat')
						await fixture.activate(flow.id);
				if (two) await enableChatHub(fixture.n8n);
			},
		);

		afterEach(() => emu.resetFaults());
		afterAll(() => log(`n8n ${line.version}: what the chats showed:\n${seen.join('\n')}`));

		const web = (flow: Flow) =>
			fixture.webhookId(
				flows[flow].nodes.find((n) => n.type.endsWith('chatTrigger'))?.webhookId as string,
			);
		const id = (flow: Flow) => fixture.id(flows[flow].id);

		/** The public chat's and the editor's words for one message to `flow`; `hub` adds the chat hub's. */
		async function shown(
			what: string,
			flow: Flow,
			opts: { hub?: boolean; files?: Array<{ name: string; text: string }> } = {},
		): Promise<{ public: ChatShown; editor: string; hub?: ChatShown }> {
			const before = await lastExecutionId(fixture.n8n, id(flow));
			const inPublic = await publicChat(fixture.n8n, web(flow), 'lookup otter', opts.files);
			// the failed execution this message started (none when the chat answered)
			const editor = inPublic.error ? (await editorError(fixture.n8n, id(flow), before)).chat : '-';
			const hub =
				opts.hub && two ? await chatHub(fixture.n8n, id(flow), 'lookup otter') : undefined;
			seen.push(
				`| ${what} | ${inPublic.error || `(answer) ${inPublic.text.slice(0, 80)}`} | ${hub ? hub.error || `(answer) ${hub.text.slice(0, 80)}` : '-'} | ${inPublic.error ? editor : '-'} |`,
			);
			return { public: inPublic, editor, hub };
		}

		/** The package's words in every surface asked, and never n8n's "Original error". */
		function expectWords(result: Awaited<ReturnType<typeof shown>>, words: RegExp) {
			for (const text of [result.public.error, result.editor, result.hub?.error]) {
				if (text === undefined) continue;
				expect(text).toMatch(words);
				expect(text).not.toMatch(/Original error/);
			}
		}

		twoOnly('the Agent Platform Chat Model under an AI Agent', () => {
			test('wrong key', async () => {
				expectWords(
					await shown('Chat Model: wrong key', 'modelKey', { hub: true }),
					/The platform rejected the API key/,
				);
			});
			test('missing agent', async () => {
				expectWords(
					await shown('Chat Model: missing agent', 'modelMissing', { hub: true }),
					new RegExp(`The platform could not find agent ${MISSING}`),
				);
			});
			test('a text agent as the model', async () => {
				expectWords(
					await shown('Chat Model: text agent', 'modelText', { hub: true }),
					/is a text agent, not a chat agent/,
				);
			});
			test('a 5xx', async () => {
				emu.setFaults(SERVER_ERRORS);
				expectWords(
					await shown('Chat Model: 503', 'modelOk', { hub: true }),
					/The platform had a problem on its side \(HTTP 503\)/,
				);
			});
			test('a stream cut', async () => {
				emu.setFaults({ cutStreamAfterEvents: 2 });
				expectWords(
					await shown('Chat Model: stream cut', 'modelOk'),
					/The streamed answer broke off before its end/,
				);
			});
			test('a silent stream', async () => {
				emu.setFaults({ silentStreamAfterEvents: 2 });
				expectWords(
					await shown('Chat Model: stream silent', 'modelOk'),
					/The streamed answer went silent before its end/,
				);
			});
		});

		twoOnly('the chat model example, its model given another agent', () => {
			test('missing agent', async () => {
				expectWords(
					await shown('Example: missing agent', 'exampleMissing', { hub: true }),
					new RegExp(`The platform could not find agent ${MISSING}`),
				);
			});
			test('a text agent as the model', async () => {
				expectWords(
					await shown('Example: text agent', 'exampleText', { hub: true }),
					/is a text agent, not a chat agent/,
				);
			});
		});

		testOnTwo('the Chat Model under a Basic LLM Chain: missing agent', async () => {
			expectWords(
				await shown('Basic LLM Chain: missing agent', 'chainMissing'),
				new RegExp(`The platform could not find agent ${MISSING}`),
			);
		});

		describe('Agent → Execute (Stream) under a Chat Trigger', () => {
			test('wrong key', async () => {
				expectWords(
					await shown('Execute: wrong key', 'executeKey', { hub: true }),
					/The platform rejected the API key/,
				);
			});
			test('missing agent', async () => {
				expectWords(
					await shown('Execute: missing agent', 'executeMissing', { hub: true }),
					new RegExp(`The platform could not find agent ${MISSING}`),
				);
			});
			test('a 5xx', async () => {
				emu.setFaults(SERVER_ERRORS);
				expectWords(
					await shown('Execute: 503', 'executeOk', { hub: true }),
					/The platform had a problem on its side \(HTTP 503\)/,
				);
			});
			test('a refused file', async () => {
				const result = await shown('Execute: refused file', 'executeOk', {
					files: [{ name: 'setup.exe', text: 'MZ' }],
				});
				expectWords(
					result,
					/The platform does not accept \.exe files: "setup\.exe" cannot be uploaded/,
				);
			});
			test('a stream cut: the run is read to its end, the whole answer shown', async () => {
				emu.setFaults({ cutStreamAfterEvents: 2 });
				const result = await shown('Execute: stream cut', 'executeOk');
				expect(result.public.error).toBe('');
				expect(result.public.text).toContain('Echo from');
			});
		});

		test("outside a chat (a Webhook's run): the editor's error panel says the message once", async () => {
			const before = await lastExecutionId(fixture.n8n, id('outsideChat'));
			await fetch(`${fixture.n8n.baseUrl}/webhook/${OUTSIDE_CHAT_PATH}`, { method: 'POST' });
			const panel = await editorError(fixture.n8n, id('outsideChat'), before);
			seen.push(
				`| Outside a chat: missing agent (panel) | - | - | ${panel.message} / ${panel.description} |`,
			);
			expect(panel.message).toBe(`The platform could not find agent ${MISSING}`);
			// the details add what to check (errors.ts), and never repeat the title
			expect(panel.description).toMatch(/^Check the ID: the record may have been deleted/);
			expect(panel.description).not.toContain(panel.message);
		});

		// last: the rate-limited key's pace stays held for the hour the platform asked, so each key
		// gets one message (the public chat's); a run after it fails at once in the same words
		// (test/integration/across-resources/faults-rate-limit-held.timing.test.ts)
		describe('a 429 past the wait the node keeps', () => {
			beforeEach(() => holdKeyForAnHour(emu, API_KEY, WORKSPACE_ID));
			testOnTwo('Chat Model', async () => {
				expectWords(
					await shown('Chat Model: 429 (wait 1 h)', 'modelPaced'),
					/rate limit asks to wait 3600 seconds/,
				);
			});
			test('Execute', async () => {
				expectWords(
					await shown('Execute: 429 (wait 1 h)', 'executePaced'),
					/rate limit asks to wait 3600 seconds/,
				);
			});
		});
	},
);
