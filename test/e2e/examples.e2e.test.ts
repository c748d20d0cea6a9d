/**
 * The example workflows of examples/*.json, imported as they are into real n8n 1.x and 2.x (the
 * packed package installed as n8n's community installer does) and run against the emulator, so
 * that an example can never rot. On the line's shared n8n (lineN8n.ts: the examples as copies with
 * ids of this file's own): the manual examples run as the editor runs them, then the webhook, trigger
 * and chat examples are activated and called.
 * Every example file must have a test here (the first test checks it).
 * Run: npx jest --selectProjects e2e --runInBand --runTestsByPath test/e2e/examples.e2e.test.ts
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { GENERATED_PNG, type PlatformEmulator } from '../../dev/emulator';
import { EXAMPLE_CREDENTIALS, agentPlatformCredential } from '../../dev/n8n/examples';
import {
	exampleNames,
	loadExample,
	nodeItems,
	sleep,
	waitFor,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT, TEXT_AGENT, IMAGE_AGENT } from '../../dev/emulator';
import { describeEachLine } from './fixtures';

const API_KEY = 'e2e-examples-key-3c9f';
const WORKSPACE_ID = '42';
/** The agents the examples pick (the emulator's default seed): a chat agent and a text agent. */

/** Each example file and the workflow id it must keep (users' links and npm start rely on them). */
const EXAMPLES = {
	'chat-with-an-agent': 'exampleChat00001',
	'run-an-agent-on-a-file': 'exampleFile00001',
	'store-results-as-memories': 'exampleMemory001',
	'stream-to-a-webhook-caller': 'exampleStream001',
	'when-an-agent-finishes': 'exampleTrigger01',
	'ai-agent-with-a-platform-agent-tool': 'exampleAiAgent01',
	'create-an-image-and-keep-the-file': 'exampleImage0001',
	'read-a-conversation-back': 'exampleHistory01',
	'chat-with-a-platform-model-in-the-ai-agent': 'exampleModel0001',
	'chat-with-a-platform-agent-that-remembers': 'exampleMemChat01',
	'credits-per-agent-last-7-days': 'exampleUsage0001',
} as const;

describeEachLine()('n8n $line ($version): example workflows', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;

	// the examples as they are (the copies' ids are this file's own: fixture.id)
	useLineN8n(
		line,
		{
			tag: 'examples',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, timeScale: 10 },
			credentials: (platform) => [
				agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
			],
			workflows: () => exampleNames().map(loadExample),
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	const runsOf = (agentId: number) =>
		[...emu.state.runs.values()].filter((r) => r.template_id === agentId);
	const executeBodies = (agentId: number) =>
		emu.requests
			.filter((r) => r.method === 'POST' && r.path === `/agents/${agentId}/execute`)
			.map((r) => r.body as Record<string, unknown>);

	/** POSTs JSON to one of n8n's webhook paths, retrying while the activation has not registered it yet. */
	async function callWebhook(path: string, body: unknown): Promise<Response> {
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (response.status !== 404 || attempt >= 60) return response;
			await response.text();
			await sleep(500);
		}
	}

	test('every file in examples/ is one of the examples tested here, with its fixed workflow id', () => {
		expect(exampleNames()).toEqual(Object.keys(EXAMPLES).sort());
		for (const [name, id] of Object.entries(EXAMPLES)) expect(loadExample(name).id).toBe(id);
	});

	test("credits per agent in the last 7 days: Get Usage (Return All) summed per agent by n8n's Summarize", async () => {
		// The emulator's seeded history of the key's user (days 1 to 6 before today; the voiceover
		// agent's run is archived, Always Fails' run failed and counts 0), credits by hand…
		const expected = new Map<string, { credits: number; runs: number }>([
			['Text Summarizer', { credits: 1.25 + 0.9, runs: 2 }],
			['Chat Assistant', { credits: 0.42 + 0.38, runs: 2 }],
			['Image Creator', { credits: 4, runs: 1 }],
			['Always Fails', { credits: 0, runs: 1 }],
			['Narrator', { credits: 2.5, runs: 1 }],
			['Video Maker', { credits: 6, runs: 1 }],
		]);
		// …and the runs made so far in this file (none when it runs first), each a succeeded run's credits
		for (const run of emu.state.runs.values()) {
			const name = emu.state.agents.get(run.template_id)!.title;
			const sum = expected.get(name) ?? { credits: 0, runs: 0 };
			sum.credits += run.status === 'succeeded' ? (run.credits ?? 0) : 0;
			sum.runs += 1;
			expected.set(name, sum);
		}
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['credits-per-agent-last-7-days']));
		const perAgent = nodeItems(run, 'Credits per agent');
		expect(perAgent.map((item) => item.name).sort()).toEqual([...expected.keys()].sort());
		for (const item of perAgent) {
			const { credits, runs } = expected.get(String(item.name))!;
			expect(item).toMatchObject({ count_id: runs, slug: expect.any(String) });
			expect(item.sum_credits).toBeCloseTo(credits, 6);
		}
		// Return All asked for pages of 100 of the last 7 days
		expect(emu.requests.filter((r) => r.path === '/workspaces/usage').map((r) => r.query)).toEqual([
			{ range: '7d', page: '1', per_page: '100' },
		]);
	});

	test('chat with an agent: the follow-up continues the same session (root_id)', async () => {
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['chat-with-an-agent']));
		const [first] = nodeItems(run, 'Ask the agent');
		const [second] = nodeItems(run, 'Continue the conversation');
		expect(first).toMatchObject({ status: 'succeeded', agent_id: CHAT_AGENT, root_id: first.id });
		expect(second).toMatchObject({
			status: 'succeeded',
			agent_id: CHAT_AGENT,
			root_id: first.root_id,
		});
		expect(second.id).not.toBe(first.id);
		expect(String(second.output)).toContain('Tell me more about the second one.');
		expect(executeBodies(CHAT_AGENT).pop()).toMatchObject({ root_id: first.root_id });
	});

	test('run an agent on an uploaded file: uploaded, processed, attached by its ID', async () => {
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['run-an-agent-on-a-file']));
		const [file] = nodeItems(run, 'Upload the file');
		expect(file).toMatchObject({ filename: 'otters.txt', status: 'completed' });
		const [answer] = nodeItems(run, 'Run the agent on it');
		expect(answer).toMatchObject({ status: 'succeeded', agent_id: TEXT_AGENT });
		expect(emu.state.files.get(Number(file.id))?.filename).toBe('otters.txt');
		expect(executeBodies(TEXT_AGENT).pop()).toMatchObject({
			file_ids: [Number(file.id)],
			topic: 'Summarise the attached file in two sentences',
			tone: 'friendly',
		});
	});

	test("store results as memories: the run's output becomes a memory in the default collection", async () => {
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['store-results-as-memories']));
		const [summary] = nodeItems(run, 'Write the summary');
		const [memory] = nodeItems(run, 'Remember it');
		expect(summary).toMatchObject({ status: 'succeeded', agent_id: TEXT_AGENT });
		expect(String(summary.output).length).toBeGreaterThan(0);
		expect(memory.memory).toBe(summary.output);
		const stored = emu.state.memories.get(Number(memory.id));
		expect(stored?.memory).toBe(summary.output);
	});

	test('create an image and pass the file on: the picture arrives as a binary and is uploaded again', async () => {
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['create-an-image-and-keep-the-file']));
		const [image] = nodeItems(run, 'Create the image');
		expect(image).toMatchObject({ status: 'succeeded', agent_id: IMAGE_AGENT });
		expect(image.generated_files).toEqual([expect.objectContaining({ binary_property: 'data' })]);
		const [uploaded] = nodeItems(run, 'Upload it as a platform file');
		expect(uploaded).toMatchObject({ filename: GENERATED_PNG.name });
		const stored = emu.state.files.get(Number(uploaded.id));
		expect(stored).toMatchObject({
			mimeType: GENERATED_PNG.mimeType,
			sha256: GENERATED_PNG.sha256,
		});
	});

	test('read a conversation back: both turns of the session, oldest first', async () => {
		const { run } = await n8n.executeOk(fixture.id(EXAMPLES['read-a-conversation-back']));
		const [first] = nodeItems(run, 'Ask the agent');
		const [second] = nodeItems(run, 'Follow up');
		const turns = nodeItems(run, 'Read the conversation');
		expect(second.root_id).toBe(first.id);
		expect(turns.map((turn) => turn.id)).toEqual([first.id, second.id]);
		expect(turns.map((turn) => turn.input)).toEqual([
			'Which three facts about sea otters surprise most people?',
			'Tell me more about the second one.',
		]);
	});

	describe('with n8n running', () => {
		test('stream to a webhook caller: the caller gets the answer piece by piece', async () => {
			await fixture.activate(EXAMPLES['stream-to-a-webhook-caller']);
			const response = await callWebhook('ask-agent', { message: 'Tell me about otters' });
			expect(response.status).toBe(200);
			const messages = (await response.text())
				.split('\n')
				.filter((l) => l.trim())
				.map((l) => JSON.parse(l) as { type: string; content?: string });
			const pieces = messages.filter((m) => m.type === 'item');
			expect(pieces.length).toBeGreaterThan(2);
			const text = pieces.map((m) => m.content).join('');
			expect(text).toBe(runsOf(CHAT_AGENT).pop()!.output);
			expect(text).toContain('Tell me about otters');
		});

		test('chat with a platform agent that remembers: the answer streamed piece by piece, one conversation per chat session (Simple Memory), one request a turn, the earlier messages shown again', async () => {
			const workflow = loadExample('chat-with-a-platform-agent-that-remembers');
			const chatTrigger = workflow.nodes.find(
				(n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger',
			) as unknown as { webhookId: string };
			await fixture.activate(workflow.id);
			const say = async (sessionId: string, chatInput: string) => {
				const before = executeBodies(CHAT_AGENT).length;
				const response = await callWebhook(`${fixture.webhookId(chatTrigger.webhookId)}/chat`, {
					action: 'sendMessage',
					sessionId,
					chatInput,
				});
				const text = await response.text();
				expect({ status: response.status, text }).toMatchObject({ status: 200 });
				// each chat message is one request to the platform
				expect(executeBodies(CHAT_AGENT).length - before).toBe(1);
				// the Chat Trigger streams (Response Mode: Streaming) what Execute streams: JSON lines
				const pieces = text
					.split('\n')
					.filter((l) => l.trim())
					.map((l) => JSON.parse(l) as { type: string; content?: string })
					.filter((m) => m.type === 'item');
				expect(pieces.length).toBeGreaterThan(2);
				return {
					answer: { output: pieces.map((m) => m.content).join('') },
					body: executeBodies(CHAT_AGENT).pop()!,
				};
			};
			const first = await say('e2e-ada', 'My name is Ada.');
			expect(first.body.root_id).toBeUndefined();
			const rootId = runsOf(CHAT_AGENT).pop()!.root_id;
			const second = await say('e2e-ada', 'What is my name?');
			expect(second.body).toMatchObject({
				root_id: rootId,
				messages: [{ role: 'user', content: 'What is my name?' }],
			});
			expect(second.answer.output).toContain(
				'Earlier in this conversation you wrote: "My name is Ada."',
			);
			const other = await say('e2e-bob', 'What is my name?');
			expect(other.body.root_id).toBeUndefined();
			expect(other.answer.output).not.toContain('Ada');
			// the Chat Trigger shows the session's earlier messages from the same memory
			const loaded = await callWebhook(`${fixture.webhookId(chatTrigger.webhookId)}/chat`, {
				action: 'loadPreviousSession',
				sessionId: 'e2e-ada',
			});
			const { data } = (await loaded.json()) as {
				data: Array<{ id: string[]; kwargs: { content: string } }>;
			};
			expect(data.map((m) => [m.id.at(-1), m.kwargs.content])).toEqual([
				['HumanMessage', 'My name is Ada.'],
				['AIMessage', first.answer.output],
				['HumanMessage', 'What is my name?'],
				['AIMessage', second.answer.output],
			]);
		});

		test("when an agent finishes: a finished run starts the workflow with the run's result", async () => {
			const workflowId = EXAMPLES['when-an-agent-finishes'];
			await fixture.activate(workflowId);
			await waitFor("the trigger's webhook on the platform", () =>
				[...emu.state.webhooks.values()].some(
					(w) => w.template_id === TEXT_AGENT && w.status === 'active',
				),
			);
			const res = await fetch(`${emu.url}/agents/${TEXT_AGENT}/execute`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${API_KEY}`,
					'x-workspace-id': WORKSPACE_ID,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ answers: { topic: 'otters', tone: 'casual' } }),
			});
			expect(res.status).toBe(200);
			const runId = ((await res.json()) as { responses: Array<{ id: number }> }).responses[0].id;
			const execution = await waitFor('the example to run on the delivery', async () => {
				const [newest] = await n8n.getExecutions(fixture.id(workflowId));
				return newest?.status === 'success' ? newest : undefined;
			});
			const runData = (
				execution.data as {
					resultData: {
						runData: Record<
							string,
							Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
						>;
					};
				}
			).resultData.runData;
			const [item] = runData['Keep the result'][0].data.main[0].map((i) => i.json);
			expect(item).toEqual({
				run: runId,
				agent: TEXT_AGENT,
				answer: emu.state.runs.get(runId)!.output,
				credits: emu.state.runs.get(runId)!.credits,
			});
		});

		test("AI Agent with a platform agent as its tool, on the platform's model: the model calls the tool, the tool runs the platform agent (n8n 2.x); a plain message on n8n 1.x", async () => {
			const name = 'ai-agent-with-a-platform-agent-tool';
			const workflow = loadExample(name);
			const chatTrigger = workflow.nodes.find(
				(n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger',
			) as unknown as { webhookId: string };
			await fixture.activate(workflow.id);
			// the stand-in calls a tool whose description's words the question says (docs/emulator.md)
			const question = 'Ask the platform agent what sea otters eat.';
			const response = await callWebhook(`${fixture.webhookId(chatTrigger.webhookId)}/chat`, {
				action: 'sendMessage',
				sessionId: 'e2e-session',
				chatInput: question,
			});
			const text = await response.text();
			expect({ status: response.status, text }).toMatchObject({ status: 200 });
			if (line.line === '1.x') {
				const [execution] = await n8n.getExecutions(fixture.id(EXAMPLES[name]), { limit: 1 });
				expect(JSON.stringify(execution)).toContain(
					'The Agent Platform Chat Model needs n8n 2.16 or later',
				);
				return;
			}
			const answer = JSON.parse(text) as { output?: string };
			// The tool ran the chat agent with the question the model put into $fromAI('message'), the
			// tool's default Message in node version 1.2 (the example types none)…
			const run = runsOf(CHAT_AGENT)
				.filter((r) => r.via === 'execute')
				.pop()!;
			expect(executeBodies(CHAT_AGENT).pop()).toMatchObject({
				messages: [{ role: 'user', content: question }],
			});
			// …and the model's final answer carries what the tool returned.
			expect(answer.output).toContain(run.output.slice(0, 40));
		});

		test("a platform chat agent as the AI Agent's model: the tool is called, the answer streams (n8n 2.x); a plain message on n8n 1.x", async () => {
			const name = 'chat-with-a-platform-model-in-the-ai-agent';
			const workflow = loadExample(name);
			const chatTrigger = workflow.nodes.find(
				(n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger',
			) as unknown as { webhookId: string };
			await fixture.activate(workflow.id);
			const response = await callWebhook(`${fixture.webhookId(chatTrigger.webhookId)}/chat`, {
				action: 'sendMessage',
				sessionId: 'e2e-model',
				chatInput: 'What does otter mean?',
			});
			const lines = (await response.text()).split('\n').filter((l) => l.trim());
			if (line.line === '1.x') {
				const [execution] = await n8n.getExecutions(fixture.id(EXAMPLES[name]), { limit: 1 });
				expect(JSON.stringify(execution)).toContain(
					'The Agent Platform Chat Model needs n8n 2.16 or later',
				);
				return;
			}
			const pieces = lines
				.map((l) => JSON.parse(l) as { type: string; content?: string })
				.filter((m) => m.type === 'item' && m.content);
			const answer = pieces.map((m) => m.content).join('');
			expect(pieces.length).toBeGreaterThan(2);
			// the Glossary's result reached the model, and the answer says it in words
			expect(answer).toContain('a river animal that eats fish');
			expect(answer).not.toContain('[{');
		});
	});
});
