/**
 * What n8n's own OpenAI Chat Model shows in the chat for the failures test/e2e/chat-failures.e2e.test.ts
 * checks for the package (a wrong key, a missing agent, a 5xx, a 429 asking an hour), on the
 * emulator's OpenAI-compatible endpoint, under an AI Agent and a Chat Trigger: the reference column
 * of docs/errors-and-retries.md ("What n8n's chats show"). A measurement of n8n's behaviour, not a
 * test of the package: it prints one row a failure (the public chat, the editor's error panel) and
 * fails only when a failure showed nothing at all.
 *
 * Run: npm run measure -- test/measure/openai-chat-failures.measure.test.ts
 * (or: E2E_N8N_LINES=2 npx jest test/measure/openai-chat-failures.measure.test.ts --selectProjects measure)
 */
import { randomUUID } from 'node:crypto';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { N8nInstance, log, openAiEmulatorCredential, type N8nLine } from '../../dev/n8n/harness';
import { chatWorkflow, editorError, lastExecutionId, node, publicChat } from '../e2e/chatSurfaces';
import { holdKeyForAnHour } from '../e2e/chatFailureCases';
import { describeEachLine } from '../e2e/fixtures';
import { CHAT_AGENT as CHAT } from '../../dev/emulator';

const API_KEY = 'measure-openai-chat-failures-key';
const WORKSPACE_ID = '42';
const MISSING = 99999;

describeEachLine(['2.x'])("n8n $version: what n8n's OpenAI Chat Model shows", (line: N8nLine) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	const rows: string[] = [];

	beforeAll(async () => {
		emu = await startEmulator({ quiet: true, apiKey: API_KEY, workspaceId: WORKSPACE_ID });
		n8n = await N8nInstance.withPackage(line);
		await n8n.start({ timeoutMs: 180_000 });
		await n8n.setupOwnerAndApiKey();
	});
	afterAll(async () => {
		log(`n8n ${line.version}: n8n's OpenAI Chat Model in the chat\n${rows.join('\n')}`);
		await n8n?.dispose();
		await emu?.stop();
	});

	/** One message to a new AI Agent workflow whose OpenAI Chat Model uses `platform`, agent `agentId`. */
	async function measure(what: string, apiKey: string, agentId: number) {
		const credential = openAiEmulatorCredential(
			{ url: emu.url, apiKey, workspaceId: WORKSPACE_ID },
			agentId,
			{ name: `OpenAI (${what})` },
		);
		const credentialId = await n8n.createCredential(credential);
		const model = node(
			'OpenAI Chat Model',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			1.2,
			{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
			{ openAiApi: { id: credentialId, name: credential.name } },
		);
		const webhookId = randomUUID();
		const agent = node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, { options: {} });
		const workflowId = await n8n.createWorkflow(
			chatWorkflow(randomUUID().replace(/-/g, '').slice(0, 16), webhookId, agent, [
				{ node: model, type: 'ai_languageModel' },
			]),
		);
		await n8n.activate(workflowId);
		const before = await lastExecutionId(n8n, workflowId);
		const chat = await publicChat(n8n, webhookId, 'lookup otter');
		const panel = chat.error ? await editorError(n8n, workflowId, before) : undefined;
		rows.push(
			`| ${what} | ${chat.error || `(answer) ${chat.text.slice(0, 60)}`} | ${panel ? `${panel.message} / ${panel.description}` : '-'} |`,
		);
		expect(`${chat.error}${chat.text}`).not.toBe('');
	}

	afterEach(() => emu.resetFaults());

	test('wrong key', () => measure('wrong key', 'not-the-key', CHAT));
	test('missing agent', () => measure('missing agent', API_KEY, MISSING));
	test('503', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 503, faultMethods: ['POST'] });
		await measure('503', API_KEY, CHAT);
	});
	test('429 asking an hour', async () => {
		await holdKeyForAnHour(emu, API_KEY, WORKSPACE_ID);
		await measure('429 (wait 1 h)', API_KEY, CHAT);
	});
});
