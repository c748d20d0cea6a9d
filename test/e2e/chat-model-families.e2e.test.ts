/**
 * What n8n itself must carry of the chat model's reading, end to end in n8n 2.x (1.x has no AI
 * node SDK): an AI Agent with two Code tools (lookup, translate), answered through a Webhook
 * (whole) and streamed through a Chat Trigger, its model's replies scripted word for word (the
 * emulator's `replies`): a Hermes call after a sentence and the package's own asked JSON with a
 * sentence before and after run the tool once, from 2 requests; a fenced example of a bound tool
 * inside an explanation runs nothing and is the answer; a reasoning block in the middle of an
 * answer is never shown. The breadth of formats lives in the unit fixtures
 * (test/unit/chat-model/fixtures/). On the line's shared n8n (lineN8n.ts).
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-families.e2e.test.ts --selectProjects e2e
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, type N8nInstance } from '../../dev/n8n/harness';
import { chatAgentVars, describeEachLine, loadWorkflow, postToStreamingWebhook } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-families-key-3f1c';
const CREDENTIAL = { id: fixtureId('credChatFamilies'), name: 'Agent Platform (families)' };
const CHAT_WEBHOOK = '8a1b2c3d-1004-4e5f-8a00-000000000001';
/**
 * The Webhook's path of this file's copy of chat-model-agent-two-tools: chat-model.e2e.test.ts
 * activates that fixture too, and a path is not made the file's own with the copy's ids.
 */
const TWO_TOOLS_PATH = 'chat-model-families-two-tools';
const F = '```';
const FINAL = 'An otter is a river animal, says the glossary.';
/** What the lookup Code tool answers: in the second request, the tool ran. */
const TOOL_RESULT = 'Glossary says: otter is a river animal';

/** [case, the model's first reply, whether it calls lookup, the answer the chat shows] */
const CASES: Array<[string, string, boolean, string]> = [
	[
		'a Hermes call after a sentence',
		`I'll look that up.\n<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>`,
		true,
		FINAL,
	],
	[
		'the asked JSON with a sentence before and after',
		`I'll look that up.\n{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}\nOne moment.`,
		true,
		FINAL,
	],
	[
		'a fenced example of a bound tool inside an explanation',
		`Qwen writes a call like this:\n\n${F}xml\n<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>\n${F}\n\nThe serving stack turns it into a tool call.`,
		false,
		`Qwen writes a call like this:\n\n${F}xml\n<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>\n${F}\n\nThe serving stack turns it into a tool call.`,
	],
	[
		'a reasoning block in the middle of the answer',
		'An otter is a river animal.\n<think>\nShould I run lookup as well? No, I know this.\n</think>\nIt lives near water.',
		false,
		'An otter is a river animal.\nIt lives near water.',
	],
];

describeEachLine(['2.x'])('n8n $line ($version): the reading n8n carries', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const completions = () =>
		emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);

	useLineN8n(
		line,
		{
			tag: 'chat-model-families',
			emulator: { apiKey: API_KEY, workspaceId: '42', executionSeconds: 0.3 },
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
		},
	);

	beforeEach(() => emu.clearRequests());
	afterEach(() => emu.configureAgent(CHAT_AGENT, { replies: undefined }));

	async function whole(): Promise<string> {
		const answer = await n8n.postWebhook(
			TWO_TOOLS_PATH,
			{ question: 'What is an otter?' },
			{ registeredWithinMs: 20_000 },
		);
		expect(answer.status).toBe(200);
		return String((answer.body as IDataObject).output);
	}

	/** The text n8n's chat shows of one streamed answer. */
	async function streamed(sessionId: string): Promise<string> {
		const response = await postToStreamingWebhook(
			n8n.baseUrl,
			`${fixture.webhookId(CHAT_WEBHOOK)}/chat`,
			{ action: 'sendMessage', sessionId, chatInput: 'What is an otter?' },
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

	/** The tool ran once (its result in the second request), or never (one request). */
	function expectToolRuns(calls: boolean) {
		const sent = completions();
		expect(sent).toHaveLength(calls ? 2 : 1);
		if (calls) expect(JSON.stringify(sent[1].body)).toContain(TOOL_RESULT);
		expect(JSON.stringify(sent[0].body)).not.toContain(TOOL_RESULT);
	}

	test.each(CASES)('%s, whole', async (_, reply, calls, answer) => {
		emu.configureAgent(CHAT_AGENT, { replies: calls ? [reply, FINAL] : [reply] });
		expect(await whole()).toBe(answer);
		expectToolRuns(calls);
	});

	test.each(CASES.map((c, i) => [...c, i] as const))(
		'%s, streamed: the chat shows the answer, never a call or the reasoning',
		async (_, reply, calls, answer, i) => {
			emu.configureAgent(CHAT_AGENT, { replies: calls ? [reply, FINAL] : [reply] });
			const text = await streamed(`e2e-reading-${i}`);
			// the prose before a call may be shown before the answer; nothing of the call itself
			expect(text.endsWith(answer)).toBe(true);
			if (calls) expect(text).not.toMatch(/tool_call|"name"|One moment/);
			expect(text).not.toContain('Should I run lookup');
			expectToolRuns(calls);
		},
	);
});
