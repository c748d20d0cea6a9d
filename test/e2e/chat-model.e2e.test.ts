/**
 * The Agent Platform Chat Model inside real n8n with the packed package, against the emulator:
 * on n8n 2.x (which ships the AI node SDK) as the model of a Basic LLM Chain, an AI Agent with a
 * Code tool (answered through a Webhook, and streamed through a Chat Trigger with memory) and an
 * Information Extractor; on n8n 1.x, the plain message that it needs n8n 2.16, while the
 * package's other nodes load (the rest of the e2e suite runs them on the same line).
 *
 * The emulator's scripted model follows the tools protocol (dev/emulator/toolsProtocolModel.ts):
 * it calls the first tool with the question, then answers with what the tool said.
 *
 * Run: npx jest test/e2e/chat-model.e2e.test.ts --selectProjects e2e   (E2E_N8N_LINES=2 for one line)
 */
import type { IDataObject } from 'n8n-workflow';
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { N8nInstance, fixtureId, log, selectedLines } from '../../dev/n8n/harness';
import { TOOLS_PROTOCOL_MARK } from '../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { chatAgentVars, n8nWithFixtures, postToStreamingWebhook } from './fixtures';

const API_KEY = 'e2e-chat-model-key-7d2a';
const WORKSPACE_ID = '42';
const CHAT_AGENT = 1;
const CREDENTIAL = { id: fixtureId('credChatModel'), name: 'Agent Platform (chat model)' };
const FIXTURES = [
	'chat-model-chain',
	'chat-model-extractor',
	'chat-model-agent-webhook',
	'chat-model-agent-chat',
	'chat-model-summarization',
	'chat-model-classifier',
	'chat-model-sentiment',
];
const WORKFLOW_IDS = [
	'chatModelChain01',
	'chatModelExtrac1',
	'chatModelAgent01',
	'chatModelAgent02',
	'chatModelSummar1',
	'chatModelClassi1',
	'chatModelSentim1',
];
const TOOL_SAYS = (question: string) => `Glossary says: ${question} is a river animal`;

describe.each(selectedLines())('n8n $line ($version): Agent Platform Chat Model', (line) => {
	const hasSdk = line.line === '2.x';
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	const completions = () =>
		emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);
	const sentMessages = (i: number) =>
		(completions()[i].body as IDataObject).messages as IDataObject[];

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
			FIXTURES.map((name) => [name, vars]),
		);
		await n8n.start();
		await n8n.setupOwnerAndApiKey();
		for (const id of hasSdk ? WORKFLOW_IDS : WORKFLOW_IDS.slice(0, 1)) await n8n.activate(id);
	});

	afterAll(async () => {
		await n8n?.dispose();
		await emu?.stop();
	});

	beforeEach(() => emu.clearRequests());

	if (!hasSdk) {
		test('n8n 1.x: the model says plainly that it needs n8n 2.16, and sends nothing', async () => {
			const answer = await n8n.postWebhook(
				'chat-model-chain',
				{ question: 'Hello' },
				{ registeredWithinMs: 20_000 },
			);
			expect(answer.status).toBe(500);
			const [execution] = await n8n.getExecutions('chatModelChain01', { limit: 1 });
			const saved = JSON.stringify(execution);
			expect(saved).toContain('The Agent Platform Chat Model needs n8n 2.16 or later');
			expect(completions()).toHaveLength(0);
		});
		return;
	}

	test('Basic LLM Chain: the answer is the platform run, from one request', async () => {
		const question = 'What is an otter?';
		const answer = await n8n.postWebhook(
			'chat-model-chain',
			{ question },
			{ registeredWithinMs: 20_000 },
		);
		expect(answer).toMatchObject({
			status: 200,
			body: { text: `Echo from Chat Assistant: ${question}` },
		});
		expect(completions()).toHaveLength(1);
		expect(sentMessages(0)).toEqual([{ role: 'user', content: question }]);
	});

	test('AI Agent with a Code tool: the tool is called once and its result is in the answer; two requests', async () => {
		const question = 'otter';
		const answer = await n8n.postWebhook(
			'chat-model-agent',
			{ question },
			{ registeredWithinMs: 20_000 },
		);
		// n8n hands the model the tool's output as JSON: [{"response": "…"}]
		const output = String((answer.body as IDataObject).output);
		expect(answer.status).toBe(200);
		expect(output.startsWith('Here is what lookup said: ')).toBe(true);
		expect(output).toContain(TOOL_SAYS(question));
		expect(completions()).toHaveLength(2);
		expect(String(sentMessages(0)[0].content)).toContain(TOOLS_PROTOCOL_MARK);
		expect(sentMessages(1).slice(-2)).toEqual([
			{
				role: 'assistant',
				content: JSON.stringify({ tool_call: { name: 'lookup', arguments: { input: question } } }),
			},
			{
				role: 'user',
				content: `Result of the tool "lookup":\n${JSON.stringify([{ response: TOOL_SAYS(question) }])}`,
			},
		]);
	});

	test('AI Agent under a Chat Trigger in streaming mode: the answer streams in pieces over the run; memory carries the chat', async () => {
		const webhookId = '8a1b2c3d-1004-4e5f-8a00-000000000001';
		const ask = async (chatInput: string) => {
			const sentAt = Date.now();
			const response = await postToStreamingWebhook(n8n.baseUrl, `${webhookId}/chat`, {
				action: 'sendMessage',
				sessionId: 'e2e-chat-model',
				chatInput,
			});
			expect(response.status).toBe(200);
			const pieces: Array<{ text: string; at: number }> = [];
			let buffered = '';
			const decoder = new TextDecoder();
			for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
				buffered += decoder.decode(chunk, { stream: true });
				const lines = buffered.split('\n');
				buffered = lines.pop() ?? '';
				for (const l of lines.filter((x) => x.trim())) {
					const message = JSON.parse(l) as { type: string; content?: string };
					if (message.type === 'item' && message.content)
						pieces.push({ text: message.content, at: Date.now() - sentAt });
				}
			}
			return pieces;
		};
		const pieces = await ask('otter');
		const text = pieces.map((p) => p.text).join('');
		log(
			`n8n ${line.version}: the chat's answer came in ${pieces.length} pieces, from ${pieces[0]?.at} ms to ${pieces[pieces.length - 1]?.at} ms`,
		);
		expect(text).toBe(
			`Here is what lookup said: ${JSON.stringify([{ response: TOOL_SAYS('otter') }])}`,
		);
		expect(pieces.length).toBeGreaterThanOrEqual(3);
		// pieces over the run (the platform writes the answer over 2 s), not all at its end
		expect(pieces[pieces.length - 1].at - pieces[0].at).toBeGreaterThan(500);
		expect(completions()).toHaveLength(2);

		emu.clearRequests();
		await ask('beaver');
		const history = sentMessages(0)
			.map((m) => String(m.content))
			.join('\n');
		expect(history).toContain('otter');
		expect(history).toContain('beaver');
	});

	test('Information Extractor: the schema is filled from the JSON the model wrote', async () => {
		emu.configureAgent(CHAT_AGENT, { outputs: ['{"name": "Ada", "age": 36}'] });
		try {
			const answer = await n8n.postWebhook(
				'chat-model-extract',
				{ text: 'Ada is 36 years old.' },
				{ registeredWithinMs: 20_000 },
			);
			expect(answer).toMatchObject({ status: 200, body: { output: { name: 'Ada', age: 36 } } });
			expect(completions()).toHaveLength(1);
		} finally {
			emu.configureAgent(CHAT_AGENT, { outputs: [] });
		}
	});

	type RunData = Record<string, Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>>;
	test.each([
		['Summarization Chain', 5, 'chatModelSummar1', [], 0],
		['Text Classifier', 6, 'chatModelClassi1', ['{"Otters": true, "Cats": false}'], 0],
		[
			'Sentiment Analysis',
			7,
			'chatModelSentim1',
			['{"sentiment": "Positive", "strength": 0.9, "confidence": 0.95}'],
			0,
		],
	] as const)(
		'%s: runs on the model, its answer read',
		async (name, n, workflowId, outputs, branch) => {
			emu.configureAgent(CHAT_AGENT, { outputs: [...outputs] });
			try {
				const text = 'Otters hold hands while they sleep, which is lovely.';
				const answer = await n8n.postWebhook(
					`chat-model-root-${n}`,
					{ text },
					{ registeredWithinMs: 20_000 },
				);
				expect(answer.status).toBe(200);
				const [execution] = await n8n.getExecutions(workflowId, { limit: 1 });
				const runData = (execution.data as { resultData: { runData: RunData } }).resultData.runData;
				const main = runData[name][0].data.main;
				log(
					`n8n ${line.version}: ${name}: ${completions().length} requests, outputs ${main.map((items) => items?.length ?? 0).join('/')}`,
				);
				// the item goes out on the branch the model's answer picked (Otters, Positive)
				expect(main[branch]).toHaveLength(1);
				const [item] = main[branch].map((i) => i.json);
				if (name === 'Summarization Chain')
					expect(String((item.output as IDataObject).text)).toMatch(/^Echo from Chat Assistant: /);
				if (name === 'Sentiment Analysis')
					expect(item.sentimentAnalysis).toMatchObject({ category: 'Positive' });
				expect(completions().length).toBeGreaterThanOrEqual(1);
			} finally {
				emu.configureAgent(CHAT_AGENT, { outputs: [] });
			}
		},
	);
});
