/**
 * The Agent Platform Chat Model's tool calls inside real n8n 2.x (the AI node SDK's line) with the
 * packed package, against the emulator's scripted model (dev/emulator/toolsProtocolModel.ts):
 * - an AI Agent whose model asks for two tools at once runs both in one turn, from 2 requests;
 * - streamed to n8n's chat, a sentence before the call reaches the chat, the call's JSON does not,
 *   and the tool runs;
 * - a failing model call shows the package's words in the chat.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-tools.e2e.test.ts --selectProjects e2e
 */
import type { IDataObject } from 'n8n-workflow';
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { N8nInstance, fixtureId, log, selectedLines } from '../../dev/n8n/harness';
import { chatAgentVars, n8nWithFixtures, postToStreamingWebhook } from './fixtures';

const API_KEY = 'e2e-chat-model-tools-key-5c1e';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const CREDENTIAL = { id: fixtureId('credChatTools'), name: 'Agent Platform (chat model tools)' };
const CHAT_WEBHOOK = '8a1b2c3d-1004-4e5f-8a00-000000000001';

// n8n 1.x has no AI node SDK (chat-model.e2e.test.ts checks its plain message there)
const lines = selectedLines().filter((line) => line.line === '2.x');
const eachLine = lines.length ? describe.each(lines) : describe.skip.each(selectedLines());

eachLine('n8n $line ($version): the chat model calls tools', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	const completions = () =>
		emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);
	const sentMessages = (i: number) =>
		(completions()[i].body as IDataObject).messages as IDataObject[];

	/** n8n's chat: the streamed lines of one message, as n8n's chat widget reads them. */
	async function chat(chatInput: string, sessionId: string) {
		const response = await postToStreamingWebhook(n8n.baseUrl, `${CHAT_WEBHOOK}/chat`, {
			action: 'sendMessage',
			sessionId,
			chatInput,
		});
		expect(response.status).toBe(200);
		const events: Array<{ type: string; content?: string }> = [];
		let buffered = '';
		const decoder = new TextDecoder();
		for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
			buffered += decoder.decode(chunk, { stream: true });
			const parts = buffered.split('\n');
			buffered = parts.pop() ?? '';
			for (const part of parts.filter((x) => x.trim())) events.push(JSON.parse(part));
		}
		return events;
	}

	beforeAll(async () => {
		emu = await startEmulator({
			apiKey: API_KEY,
			workspaceId: WORKSPACE_ID,
			executionSeconds: 2,
			quiet: true,
		});
		const vars = chatAgentVars(emu, CHAT_AGENT);
		n8n = await n8nWithFixtures(
			line,
			{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
			{ ...CREDENTIAL, requestsPerSecond: 100 },
			[
				['chat-model-agent-two-tools', vars],
				['chat-model-agent-chat', vars],
			],
		);
		await n8n.start();
		await n8n.setupOwnerAndApiKey();
		for (const id of ['chatModelTwoTls1', 'chatModelAgent02']) await n8n.activate(id);
	});

	afterAll(async () => {
		await n8n?.dispose();
		await emu?.stop();
	});

	beforeEach(() => emu.clearRequests());

	test('an AI Agent whose model asks for two tools at once runs both in one turn, from 2 requests', async () => {
		const answer = await n8n.postWebhook(
			'chat-model-two-tools',
			{ question: 'Use lookup and translate on "otter".' },
			{ registeredWithinMs: 20_000 },
		);
		expect(answer.status).toBe(200);
		const output = String((answer.body as IDataObject).output);
		log(`n8n ${line.version}: two tools at once answered: ${output}`);
		expect(output).toContain('Glossary says: otter is a river animal');
		expect(output).toContain('French for otter is loutre');
		expect(completions()).toHaveLength(2);
		// the second request carries both calls and both results
		const history = sentMessages(1)
			.map((m) => String(m.content))
			.join('\n');
		expect(history).toContain('Result of the tool "lookup"');
		expect(history).toContain('Result of the tool "translate"');
	});

	test('streamed: the sentence before a call reaches the chat, its JSON does not, and the tool runs', async () => {
		const events = await chat('[model: sentence first] otter', 'e2e-sentence-first');
		const text = events
			.filter((e) => e.type === 'item')
			.map((e) => e.content ?? '')
			.join('');
		log(`n8n ${line.version}: the chat showed: ${JSON.stringify(text)}`);
		expect(text).toContain("I'll use the lookup tool to answer this.");
		expect(text).toContain('Here is what lookup said: ');
		expect(text).toContain('Glossary says: otter is a river animal');
		expect(text).not.toMatch(/tool_call|```/);
		expect(completions()).toHaveLength(2);
	});

	test("a failing model call shows the package's words in the chat", async () => {
		emu.configureAgent(CHAT_AGENT, { fail: 'The model is overloaded.' });
		try {
			const events = await chat('otter', 'e2e-chat-error');
			const errors = events.filter((e) => e.type === 'error').map((e) => e.content ?? '');
			log(`n8n ${line.version}: the chat's error: ${JSON.stringify(errors)}`);
			expect(errors.length).toBeGreaterThan(0);
			expect(errors[0]).toMatch(/^The platform answered with an error: .*overloaded/);
			expect(errors[0]).not.toContain('Original error');
			expect(completions()).toHaveLength(1);
		} finally {
			emu.configureAgent(CHAT_AGENT, { fail: false });
		}
	});
});
