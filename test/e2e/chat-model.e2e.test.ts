/**
 * The Agent Platform Chat Model inside real n8n with the packed package, against the emulator:
 * on n8n 2.x (which ships the AI node SDK) as the model of a Basic LLM Chain, an AI Agent with a
 * Code tool (answered through a Webhook, and streamed through a Chat Trigger with memory), a
 * Structured Output Parser and an Information Extractor; on n8n 1.x, the plain message that it needs n8n 2.16, while the
 * package's other nodes load (the rest of the e2e suite runs them on the same line).
 *
 * The emulator's scripted model follows the tools protocol (dev/emulator/toolsProtocolModel.ts):
 * it calls the tools the question names (else the first) with the question's words, then answers
 * with what they said. On 2.x also: two tools at once run in one turn from 2 requests; a streamed
 * sentence before a call reaches the chat, its JSON does not; a failing call's words in the chat.
 *
 * Run: npx jest test/e2e/chat-model.e2e.test.ts --selectProjects e2e   (E2E_N8N_LINES=2 for one line)
 * @lines 1.x 2.x (the chat model's 1.x path: it says plainly that it needs n8n 2.16)
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { TOOLS_PROTOCOL_MARK } from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import {
	chatAgentVars,
	loadWorkflow,
	postToStreamingWebhook,
	describeEachLine,
	withReplies,
} from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-model-key-7d2a';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credChatModel'), name: 'Agent Platform (chat model)' };
const FIXTURES = [
	'chat-model-chain',
	'chat-model-extractor',
	'chat-model-agent-webhook',
	'chat-model-agent-chat',
	'chat-model-agent-two-tools',
	'chat-model-chain-structured',
	'chat-model-summarization',
	'chat-model-classifier',
	'chat-model-sentiment',
];
const WORKFLOW_IDS = [
	'chatModelChain01',
	'chatModelExtrac1',
	'chatModelAgent01',
	'chatModelAgent02',
	'chatModelTwoTls1',
	'chatModelStruct1',
	'chatModelSummar1',
	'chatModelClassi1',
	'chatModelSentim1',
];
const CHAT_WEBHOOK = '8a1b2c3d-1004-4e5f-8a00-000000000001';
/**
 * This file's Webhook paths on the line's shared n8n: chat-model-features and chat-model-families
 * activate some of the same fixtures, and a copy's ids do not change a path.
 */
const ownPath = (path: string) => `${path}-of-chat-model-file`;
const TOOL_SAYS = (question: string) => `Glossary says: ${question} is a river animal`;

describeEachLine()('n8n $line ($version): Agent Platform Chat Model', (line) => {
	const hasSdk = line.line === '2.x';
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const completions = () =>
		emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);
	const sentMessages = (i: number) =>
		(completions()[i].body as IDataObject).messages as IDataObject[];
	/** What the platform answered last to a chat-completions request. */
	const lastAnswer = () =>
		[...emu.state.runs.values()].filter((r) => r.via === 'openai').at(-1)!.output;

	useLineN8n(
		line,
		{
			tag: 'chat-model',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 2 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
			],
			workflows: (started) => {
				const vars = chatAgentVars(started, CHAT_AGENT);
				const ids = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name };
				const workflows = FIXTURES.map((name) => loadWorkflow(name, { ...ids, ...vars }));
				for (const node of workflows.flatMap((workflow) => workflow.nodes))
					if (node.type === 'n8n-nodes-base.webhook')
						node.parameters.path = ownPath(String(node.parameters.path));
				return workflows;
			},
		},
		async (setUp) => {
			({ emu, fixture, n8n } = setUp);
			for (const id of hasSdk ? WORKFLOW_IDS : WORKFLOW_IDS.slice(0, 1)) await fixture.activate(id);
		},
	);

	beforeEach(() => emu.clearRequests());

	/** What n8n's chat shows of a message's answer: its items' text. */
	const chatText = (events: Array<{ type: string; content?: string }>) =>
		events
			.filter((e) => e.type === 'item')
			.map((e) => e.content ?? '')
			.join('');

	/** One message to n8n's chat (the Chat Trigger, streaming): its lines as the chat reads them, each with when it came. */
	async function chatEvents(chatInput: string, sessionId: string) {
		const response = await postToStreamingWebhook(
			n8n.baseUrl,
			`${fixture.webhookId(CHAT_WEBHOOK)}/chat`,
			{
				action: 'sendMessage',
				sessionId,
				chatInput,
			},
		);
		expect(response.status).toBe(200);
		const events: Array<{ type: string; content?: string; at: number }> = [];
		let buffered = '';
		const decoder = new TextDecoder();
		for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
			buffered += decoder.decode(chunk, { stream: true });
			const lines = buffered.split('\n');
			buffered = lines.pop() ?? '';
			for (const l of lines.filter((x) => x.trim()))
				events.push({ ...JSON.parse(l), at: Date.now() });
		}
		return events;
	}

	if (!hasSdk) {
		test('n8n 1.x: the model says plainly that it needs n8n 2.16, and sends nothing', async () => {
			const answer = await n8n.postWebhook(
				ownPath('chat-model-chain'),
				{ question: 'Hello' },
				{ registeredWithinMs: 20_000 },
			);
			expect(answer.status).toBe(500);
			const [execution] = await n8n.getExecutions(fixture.id('chatModelChain01'), { limit: 1 });
			const saved = JSON.stringify(execution);
			expect(saved).toContain('The Agent Platform Chat Model needs n8n 2.16 or later');
			expect(completions()).toHaveLength(0);
		});
		return;
	}

	test('Basic LLM Chain: the answer is the platform run, from one request', async () => {
		const question = 'What is an otter?';
		const answer = await n8n.postWebhook(
			ownPath('chat-model-chain'),
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

	test("Basic LLM Chain with a Structured Output Parser: n8n's parser reads the model's fenced JSON", async () => {
		// the model's answer, by hand: the JSON the format instructions ask for (n8n's parser wraps
		// its schema in `output`), in a fenced block
		const output = { state: 'California', cities: ['Los Angeles', 'San Diego'] };
		const fenced = `\`\`\`json\n${JSON.stringify({ output }, null, 2)}\n\`\`\``;
		const answer = await withReplies(emu, CHAT_AGENT, [fenced], () =>
			n8n.postWebhook(
				ownPath('chat-model-structured'),
				{ question: 'Name a state of the USA, like "California".' },
				{ registeredWithinMs: 20_000 },
			),
		);
		expect(completions()).toHaveLength(1);
		expect(String(sentMessages(0).at(-1)!.content)).toContain('JSON Schema');
		expect(answer).toMatchObject({ status: 200, body: { output } });
	});

	test('AI Agent with a Code tool: the tool is called once and its result is in the answer; two requests', async () => {
		// the stand-in's turn for "What does … mean?": the glossary asked for the word (docs/emulator.md)
		const word = 'otter';
		const answer = await n8n.postWebhook(
			ownPath('chat-model-agent'),
			{ question: `What does ${word} mean?` },
			{ registeredWithinMs: 20_000 },
		);
		// n8n hands the model the tool's output as JSON: [{"response": "…"}]
		const output = String((answer.body as IDataObject).output);
		expect(answer.status).toBe(200);
		// the platform's answer, whole; the tool's result reached it (its words, not its JSON)
		expect(output).toBe(lastAnswer());
		expect(output).toContain(TOOL_SAYS(word));
		expect(output).not.toContain('[{');
		expect(completions()).toHaveLength(2);
		expect(String(sentMessages(0)[0].content)).toContain(TOOLS_PROTOCOL_MARK);
		expect(sentMessages(1).slice(-2)).toEqual([
			{
				role: 'assistant',
				content: JSON.stringify({ tool_call: { name: 'lookup', arguments: { input: word } } }),
			},
			{
				role: 'user',
				content: `Result of the tool "lookup":\n${JSON.stringify([{ response: TOOL_SAYS(word) }])}`,
			},
		]);
	});

	test('AI Agent under a Chat Trigger in streaming mode: the answer streams in pieces; memory carries the chat', async () => {
		const ask = async (chatInput: string) => {
			const sentAt = Date.now();
			const events = await chatEvents(chatInput, 'e2e-chat-model');
			return events
				.filter((e) => e.type === 'item' && e.content)
				.map((e) => ({ text: e.content!, at: e.at - sentAt }));
		};
		// the chat's workflow has two tools: the question names the one to call and quotes its word
		const pieces = await ask('lookup "otter"');
		const text = pieces.map((p) => p.text).join('');
		log(
			`n8n ${line.version}: the chat's answer came in ${pieces.length} pieces, from ${pieces[0]?.at} ms to ${pieces[pieces.length - 1]?.at} ms`,
		);
		expect(text).toBe(lastAnswer());
		expect(text).toContain(TOOL_SAYS('otter'));
		// in pieces, as the platform wrote them (how far apart they come is a measurement: the log
		// above, and test/measure/streaming.measure.test.ts)
		expect(pieces.length).toBeGreaterThanOrEqual(3);
		expect(completions()).toHaveLength(2);

		emu.clearRequests();
		await ask('lookup "beaver"');
		const history = sentMessages(0)
			.map((m) => String(m.content))
			.join('\n');
		expect(history).toContain('otter');
		expect(history).toContain('beaver');
	});

	test('an AI Agent whose model asks for two tools at once runs both in one turn, from 2 requests', async () => {
		const answer = await n8n.postWebhook(
			ownPath('chat-model-two-tools'),
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

	test('streamed: two tools at once both run, one call per stream, from 2 requests', async () => {
		const text = chatText(
			await chatEvents('Use lookup and translate on "otter".', 'e2e-two-streamed'),
		);
		log(`n8n ${line.version}: two tools streamed, the chat showed: ${JSON.stringify(text)}`);
		expect(text).toContain('Glossary says: otter is a river animal');
		expect(text).toContain('French for otter is loutre');
		expect(text).not.toMatch(/tool_call/);
		expect(completions()).toHaveLength(2);
	});

	test('streamed: the sentence before a call reaches the chat, its JSON does not, and the tool runs', async () => {
		// the model's replies, written out (the emulator's `replies`): a sentence, then the call fenced
		const call = '{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}';
		const final = 'The glossary calls an otter a river animal.';
		const replies = [
			`I'll use the lookup tool to answer this.\n\`\`\`json\n${call}\n\`\`\``,
			final,
		];
		const text = chatText(
			await withReplies(emu, CHAT_AGENT, replies, () =>
				chatEvents('lookup "otter"', 'e2e-sentence-first'),
			),
		);
		log(`n8n ${line.version}: the chat showed: ${JSON.stringify(text)}`);
		expect(text).toContain("I'll use the lookup tool to answer this.");
		expect(text).toContain(final);
		expect(text).not.toMatch(/tool_call|```/);
		expect(completions()).toHaveLength(2);
		// the tool ran on the call: its result went back to the model
		expect(JSON.stringify(sentMessages(1))).toContain(TOOL_SAYS('otter'));
	});

	test("a failing model call shows the package's words in the chat", async () => {
		emu.configureAgent(CHAT_AGENT, { fail: 'The model is overloaded.' });
		try {
			const events = await chatEvents('lookup otter', 'e2e-chat-error');
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

	test('Information Extractor: the schema is filled from the JSON the model wrote', async () => {
		emu.configureAgent(CHAT_AGENT, { outputs: ['{"name": "Ada", "age": 36}'] });
		try {
			const answer = await n8n.postWebhook(
				ownPath('chat-model-extract'),
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
					ownPath(`chat-model-root-${n}`),
					{ text },
					{ registeredWithinMs: 20_000 },
				);
				expect(answer.status).toBe(200);
				const [execution] = await n8n.getExecutions(fixture.id(workflowId), { limit: 1 });
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
