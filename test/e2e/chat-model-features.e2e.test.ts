/**
 * n8n's AI features on the Agent Platform Chat Model, in real n8n 2.41.1 (2.x: the AI node SDK)
 * with the packed package, against the emulator: one case per row of docs/chat-model.md's feature
 * table. Each case holds what the node does (the requests sent, the messages and the forced tool
 * in them, the platform's answer passed on whole, the output n8n read from it, the branch taken);
 * where a node asks for a structured answer, the test writes the model's reply out (`replies`).
 *
 * - the AI Agent's fallback model takes over when the main model's call fails: a wrong API key,
 *   an agent the platform no longer has (the main model's error in the execution's logs);
 * - the AI Agent's output parser with a tool (the tool, then `format_final_json_response`), and
 *   without one (`format_final_json_response` at once);
 * - the Information Extractor, the Text Classifier and Sentiment Analysis read the model's JSON;
 *   the Summarization Chain;
 * - the Model Selector: the picked model's run in the logs with the platform's token usage;
 * - the Evaluation node's Correctness and Helpfulness metrics give a score (withStructuredOutput),
 *   also after a prose answer and its one correction round;
 * - n8n's Think tool and an AI Agent Tool whose sub-agent runs on the platform's model;
 * human approval of a gated tool: chat-model-approval.e2e.test.ts.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-features.e2e.test.ts --selectProjects e2e
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { chatAgentVars, describeEachLine, loadWorkflow, withReplies } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-features-key-4c1e';
const WORKSPACE_ID = '42';
const GONE_AGENT = 9999;
const CREDENTIAL = { id: fixtureId('credChatFeature'), name: 'Agent Platform (features)' };
const WRONG_KEY = { id: fixtureId('credWrongKey'), name: 'Agent Platform (wrong key)' };
const FALLBACKS = {
	key: { id: fixtureId('chatModelFallKey'), path: 'chat-model-fallback-key' },
	gone: { id: fixtureId('chatModelFallGon'), path: 'chat-model-fallback-gone' },
};
const FIXTURES = [
	'chat-model-parser-tool',
	'chat-model-parser',
	'chat-model-selector',
	'chat-model-evaluation',
	'chat-model-readers',
	'chat-model-sentiment',
	'chat-model-summarization',
	'chat-model-think-subagent',
];
const WORKFLOW_IDS = [
	'chatModelPrsTol1',
	'chatModelParsNo1',
	'chatModelSelect1',
	'chatModelEvalua1',
	'chatModelReader1',
	'chatModelSentim1',
	'chatModelSummar1',
	'chatModelThinkSb',
];

type RunData = Record<
	string,
	Array<{ data?: Record<string, Array<Array<{ json: IDataObject }>>>; error?: IDataObject }>
>;

// n8n 2.x only: 1.x has no AI node SDK (chat-model.e2e.test.ts shows its plain message there)
describeEachLine(['2.x'])('n8n $version: AI features on the Agent Platform Chat Model', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	const completions = () => emu.requests.filter((r) => r.path.endsWith('/chat/completions'));
	/** What the platform answered to each chat-completions request of the test, in order. */
	const answered = () => {
		const outputs = [...emu.state.runs.values()]
			.filter((r) => r.via === 'openai')
			.map((r) => r.output);
		return outputs.slice(outputs.length - completions().length);
	};
	const lastAnswer = () => answered().at(-1)!;
	const call = (name: string, args: IDataObject) =>
		JSON.stringify({ tool_call: { name, arguments: args } });
	const fenced = (value: IDataObject) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
	const sentMessages = (i: number) =>
		(completions()[i].body as { messages: Array<{ role: string; content: unknown }> }).messages;

	useLineN8n(
		line,
		{
			tag: 'chat-model-features',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
				agentPlatformCredential({ ...platform, apiKey: 'wrong-key-for-the-fallback' }, WRONG_KEY),
			],
			workflows: (started) => {
				const vars = {
					...chatAgentVars(started, CHAT_AGENT),
					CREDENTIAL_ID: CREDENTIAL.id,
					CREDENTIAL_NAME: CREDENTIAL.name,
				};
				const fallback = (which: keyof typeof FALLBACKS, main: typeof CREDENTIAL, agent: number) =>
					loadWorkflow('chat-model-fallback', {
						...vars,
						WORKFLOW_ID: FALLBACKS[which].id,
						PATH: FALLBACKS[which].path,
						WEBHOOK_ID: `8a1b2c3d-1021-4e5f-8a00-00000000000${which === 'key' ? 1 : 2}`,
						MAIN_CREDENTIAL_ID: main.id,
						MAIN_CREDENTIAL_NAME: main.name,
						MAIN_AGENT_ID: String(agent),
					});
				return [
					...FIXTURES.map((name) => loadWorkflow(name, vars)),
					fallback('key', WRONG_KEY, CHAT_AGENT),
					fallback('gone', CREDENTIAL, GONE_AGENT),
				];
			},
		},
		async (setUp) => {
			({ emu, fixture, n8n } = setUp);
			for (const id of [...WORKFLOW_IDS, FALLBACKS.key.id, FALLBACKS.gone.id])
				await fixture.activate(id);
		},
	);

	beforeEach(() => emu.clearRequests());

	async function post(path: string, body: IDataObject) {
		return await n8n.postWebhook(path, body, { registeredWithinMs: 20_000 });
	}

	async function lastRun(workflowId: string): Promise<RunData> {
		const [execution] = await n8n.getExecutions(fixture.id(workflowId), { limit: 1 });
		return (execution.data as { resultData: { runData: RunData } }).resultData.runData;
	}

	test.each([
		['key', 'a wrong API key'],
		['gone', 'an agent the platform no longer has'],
	] as const)(
		"fallback model: the main model's call fails (%s: %s), the fallback answers",
		async (which, _case) => {
			const question = 'What is an otter?';
			const answer = await post(FALLBACKS[which].path, { question });
			// the fallback's request reached the platform; its answer is the AI Agent's output
			expect(answer).toMatchObject({ status: 200, body: { output: lastAnswer() } });
			expect(JSON.stringify(sentMessages(completions().length - 1))).toContain(question);
			const runData = await lastRun(FALLBACKS[which].id);
			const mainError = JSON.stringify(runData['Main model']?.map((run) => run.error));
			log(`n8n ${line.version}: fallback (${which}): the main model's error: ${mainError}`);
			expect(mainError).toMatch(which === 'key' ? /API key|403/i : /9999|404|not found/i);
			expect(runData['Fallback model']?.length).toBeGreaterThan(0);
		},
	);

	test("AI Agent with an output parser and a tool: the tool runs, the answer is the parser tool's call", async () => {
		// the model's replies, by hand: the add tool's call, then the parser's tool (n8n wraps the
		// parser's schema in `output`)
		const answer = await withReplies(
			emu,
			CHAT_AGENT,
			[call('add', { a: 12, b: 30 }), call('format_final_json_response', { output: { sum: 42 } })],
			() => post('chat-model-parser-tool', { question: 'What is 12 + 30? Use the add tool.' }),
		);
		expect(answer.status).toBe(200);
		expect(completions()).toHaveLength(2);
		// the add tool (n8n's Code tool) ran on the model's call, its result went back to the model…
		const result = sentMessages(1).find((m) =>
			String(m.content).startsWith('Result of the tool "add"'),
		);
		expect(String(result?.content)).toContain('42');
		// …whose call of the parser's tool is the output
		expect((answer.body as IDataObject).output).toEqual({ sum: 42 });
	});

	test("AI Agent with an output parser and no tool: the parser tool's call is the output, from one request", async () => {
		const output = { name: 'Charles Babbage', age: 79, city: 'London' };
		const answer = await withReplies(
			emu,
			CHAT_AGENT,
			[call('format_final_json_response', { output })],
			() =>
				post('chat-model-parser', {
					question: 'Charles Babbage is 79 years old and lives in London.',
				}),
		);
		expect(answer.status).toBe(200);
		// the parser's tool was the only one described to the model
		const sent = JSON.stringify(completions()[0]?.body);
		expect(sent).toContain('- format_final_json_response:');
		expect(completions()).toHaveLength(1);
		expect((answer.body as IDataObject).output).toEqual(output);
	});

	test('Information Extractor and Text Classifier: the values the model wrote, the class it picked', async () => {
		const fields = { name: 'Ada Lovelace', age: 36, city: 'London' };
		// the model's replies, by hand: the extractor's fields, then the classifier's booleans
		const answer = await withReplies(
			emu,
			CHAT_AGENT,
			[fenced(fields), fenced({ complaint: true, praise: false })],
			() =>
				post('chat-model-readers', {
					text: 'Ada Lovelace is 36 years old and lives in London.',
					feedback: 'I am unhappy: my order arrived broken and nobody answers my e-mails.',
				}),
		);
		expect(answer.status).toBe(200);
		const runData = await lastRun('chatModelReader1');
		// one request each, the format instructions and the text in it
		expect(completions()).toHaveLength(2);
		expect(JSON.stringify(sentMessages(0))).toContain('Ada Lovelace is 36 years old');
		expect(JSON.stringify(sentMessages(0))).toContain('JSON Schema');
		expect(JSON.stringify(sentMessages(1))).toContain('my order arrived broken');
		expect(runData['Information Extractor'][0].data!.main[0][0].json.output).toEqual(fields);
		// the item went out on the complaint's branch, none on praise's
		const branches = runData['Text Classifier'][0].data!.main.map((items) => items?.length ?? 0);
		expect(branches).toEqual([1, 0]);
	});

	test('Sentiment Analysis and the Summarization Chain', async () => {
		const sentiment = await withReplies(
			emu,
			CHAT_AGENT,
			[fenced({ sentiment: 'Positive', strength: 0.9, confidence: 0.95 })],
			() =>
				post('chat-model-root-7', {
					text: 'The support team was wonderful and fixed everything, thank you!',
				}),
		);
		expect(sentiment.status).toBe(200);
		// the item went out on the branch of the sentiment the model answered: n8n's Positive, Neutral, Negative
		const branches = (await lastRun('chatModelSentim1'))['Sentiment Analysis'][0].data!.main;
		expect(branches.map((items) => items?.length ?? 0)).toEqual([1, 0, 0]);
		const summary = await post('chat-model-root-5', {
			text: 'Otters hold hands while they sleep.',
		});
		expect(summary.status).toBe(200);
		expect(JSON.stringify(sentMessages(completions().length - 1))).toContain(
			'Otters hold hands while they sleep.',
		);
		const run = (await lastRun('chatModelSummar1'))['Summarization Chain'][0].data!.main[0][0];
		expect(String((run.json.output as IDataObject).text)).toBe(lastAnswer());
	});

	test("Model Selector: the picked model answers; its run in the logs carries the platform's usage", async () => {
		const question = 'Tell me about beavers.';
		const answer = await post('chat-model-selector', { question });
		expect(answer).toMatchObject({ status: 200, body: { text: lastAnswer() } });
		expect(completions()).toHaveLength(1);
		const runData = await lastRun('chatModelSelect1');
		const picked = runData['Second model'];
		log(`n8n ${line.version}: Model Selector: the picked model's runs: ${JSON.stringify(picked)}`);
		expect(picked?.length).toBeGreaterThan(0);
		const usage = JSON.stringify(picked);
		expect(usage).toMatch(/"totalTokens":[1-9]/);
		expect(runData['First model'] ?? []).toHaveLength(0);
	});

	test("Evaluation: Correctness and Helpfulness give a score through the model's withStructuredOutput", async () => {
		// the model's reply, by hand: the call of the metrics' tool ("extract", LangChain's
		// withStructuredOutput; the fields of n8n 2.41.1's metric schema, utils/metricHandlers.js)
		const graded = call('extract', {
			extended_reasoning: 'Both name Paris as the capital of France.',
			reasoning_summary: 'Both say Paris.',
			score: 4,
		});
		const answer = await withReplies(emu, CHAT_AGENT, [graded], () =>
			post('chat-model-evaluation', {
				question: 'What is the capital of France?',
				actual: 'Paris',
				expected: 'The capital of France is Paris.',
			}),
		);
		expect(answer.status).toBe(200);
		const runData = await lastRun('chatModelEvalua1');
		const correctness = runData.Correctness[0].data!.main[0][0].json;
		const helpfulness = runData.Helpfulness[0].data!.main[0][0].json;
		log(`n8n ${line.version}: Evaluation: ${JSON.stringify({ correctness, helpfulness })}`);
		// each metric is the score of the forced tool's call
		expect([correctness.Correctness, helpfulness.Helpfulness]).toEqual([4, 4]);
		// the forced tool choice reached the model's instruction, one request per metric
		expect(completions()).toHaveLength(2);
		for (let i = 0; i < 2; i++) {
			const system = String(sentMessages(i)[0].content);
			expect(system).toMatch(/You must call the tool "[\w-]+"/);
			const forced = /You must call the tool "([\w-]+)"/.exec(system)![1];
			expect((JSON.parse(answered()[i]) as { tool_call: IDataObject }).tool_call.name).toBe(forced);
		}
	});

	test('Evaluation: a model that answers in prose once is corrected once, then gives a score', async () => {
		// the model's replies, written out (the emulator's `replies`): prose first, then the call of
		// the metrics' tool ("extract", LangChain's withStructuredOutput; the fields of n8n 2.41.1's
		// metric schema, utils/metricHandlers.js) for every later request
		const answer = await withReplies(
			emu,
			CHAT_AGENT,
			[
				'The answer says Paris, as the ground truth does.',
				'{"tool_call": {"name": "extract", "arguments": {"extended_reasoning": "Both name Paris as the capital of France.", "reasoning_summary": "Both say Paris.", "score": 5}}}',
			],
			() =>
				post('chat-model-evaluation', {
					question: 'What is the capital of France?',
					actual: 'Paris',
					expected: 'The capital of France is Paris.',
				}),
		);
		expect(answer.status).toBe(200);
		const runData = await lastRun('chatModelEvalua1');
		// the score of the call the test wrote
		expect(runData.Correctness[0].data!.main[0][0].json.Correctness).toBe(5);
		// the correction named the tool it had to call, instead of "No tool calls found"
		const corrections = completions().filter((r) =>
			JSON.stringify(r.body).includes('answered in plain text instead of calling'),
		);
		expect(corrections.length).toBeGreaterThanOrEqual(1);
		expect(completions().length).toBe(2 + corrections.length);
	});

	test("Think tool and an AI Agent Tool (a sub-agent on the platform's model): both run in one turn", async () => {
		const answer = await post('chat-model-think-subagent', {
			question: 'Use think and research on "otters".',
		});
		expect(answer.status).toBe(200);
		const output = String((answer.body as IDataObject).output);
		log(`n8n ${line.version}: Think and a sub-agent answered: ${output}`);
		// the main model twice (the calls, the answer), the sub-agent's model once
		expect(completions()).toHaveLength(3);
		// both tools ran on the main model's calls; their results went back to it in one request
		const calls = JSON.stringify(answered()[0]);
		expect(calls).toContain('Think');
		expect(calls).toContain('research');
		const results = sentMessages(2)
			.map((m) => String(m.content))
			.filter((text) => text.startsWith('Result of the tool'));
		expect(results.join('\n')).toMatch(
			/Result of the tool "Think"[\s\S]*Result of the tool "research"/,
		);
		// the sub-agent's answer (the platform's, to its own request) is research's result
		expect(results.join('\n')).toContain(answered()[1]);
		expect(output).toBe(lastAnswer());
	});
});
