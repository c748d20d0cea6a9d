/**
 * Every model family the chat model reads, end to end in n8n 2.x (1.x has no AI node SDK): the
 * emulator's scripted model writes its calls and final answers as each family does
 * (dev/emulator/modelFamilies.ts, chosen by `[family: …]` in the question), and an AI Agent with
 * two Code tools runs both from 2 requests, answered through a Webhook and streamed through a
 * Chat Trigger, where the chat's text is the answer alone: no markup of a call, no reasoning.
 * On the line's shared n8n (lineN8n.ts), with a Webhook path of its own.
 *
 * Run: npx jest test/e2e/chat-model-families.e2e.test.ts --selectProjects e2e   (about 2 minutes)
 */
import type { IDataObject } from 'n8n-workflow';
import { MODEL_FAMILIES } from '../../dev/emulator/modelFamilies';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { chatAgentVars, describeEachLine, loadWorkflow, postToStreamingWebhook } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-chat-families-key-3f1c';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const CREDENTIAL = { id: fixtureId('credChatFamilies'), name: 'Agent Platform (families)' };
const CHAT_WEBHOOK = '8a1b2c3d-1004-4e5f-8a00-000000000001';
/**
 * The Webhook's path of this file's copy of chat-model-agent-two-tools: chat-model.e2e.test.ts
 * activates that fixture too, and a path is not made the file's own with the copy's ids.
 */
const TWO_TOOLS_PATH = 'chat-model-families-two-tools';
const QUESTION = 'Use lookup and translate on "otter".';
/** Every family, and reasoning first in four of them. */
const FAMILIES = [
	...MODEL_FAMILIES,
	'asked+think',
	'hermes+think',
	'qwen3-coder+think',
	'seed-oss+think',
];

describeEachLine(['2.x'])('n8n $line ($version): every model family', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	/** The answer of the tools protocol's own shape, which every family's must equal. */
	let expected: string;
	const completions = () =>
		emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);

	useLineN8n(
		line,
		{
			tag: 'chat-model-families',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 0.3 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
			],
			workflows: (started) => {
				const vars = chatAgentVars(started, CHAT_AGENT);
				const ids = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name };
				const twoTools = loadWorkflow('chat-model-agent-two-tools', { ...ids, ...vars });
				for (const node of twoTools.nodes)
					if (node.type === 'n8n-nodes-base.webhook') node.parameters.path = TWO_TOOLS_PATH;
				return [twoTools, loadWorkflow('chat-model-agent-chat', { ...ids, ...vars })];
			},
		},
		async (setUp) => {
			({ emu, fixture, n8n } = setUp);
			for (const id of ['chatModelTwoTls1', 'chatModelAgent02']) await fixture.activate(id);
			expected = await whole('asked');
			expect(expected).toContain('Glossary says: otter is a river animal');
			expect(expected).toContain('French for otter is loutre');
		},
	);

	beforeEach(() => emu.clearRequests());

	async function whole(family: string): Promise<string> {
		const answer = await n8n.postWebhook(
			TWO_TOOLS_PATH,
			{ question: `[family: ${family}] ${QUESTION}` },
			{ registeredWithinMs: 20_000 },
		);
		expect(answer.status).toBe(200);
		return String((answer.body as IDataObject).output);
	}

	/** The text n8n's chat shows of one streamed answer. */
	async function streamed(family: string): Promise<string> {
		const response = await postToStreamingWebhook(
			n8n.baseUrl,
			`${fixture.webhookId(CHAT_WEBHOOK)}/chat`,
			{
				action: 'sendMessage',
				sessionId: `e2e-family-${family}`,
				chatInput: `[family: ${family}] ${QUESTION}`,
			},
		);
		expect(response.status).toBe(200);
		const body = await response.text();
		return body
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { type: string; content?: string })
			.filter((e) => e.type === 'item')
			.map((e) => e.content ?? '')
			.join('');
	}

	test.each(FAMILIES.map((f) => [f]))(
		'%s: whole, both tools run from 2 requests and the answer is theirs',
		async (family) => {
			const output = await whole(family);
			expect(output).toBe(expected);
			expect(completions()).toHaveLength(2);
		},
	);

	test.each(FAMILIES.map((f) => [f]))(
		'%s: streamed, both tools run from 2 requests; the chat shows the answer alone',
		async (family) => {
			const text = await streamed(family);
			if (text !== expected)
				log(`n8n ${line.version}, ${family}: the chat showed ${JSON.stringify(text)}`);
			// the answer alone: no piece of a call, no marker, no reasoning
			expect(text).toBe(expected);
			expect(completions()).toHaveLength(2);
		},
	);
});
