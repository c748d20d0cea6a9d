/**
 * Agent executions inside real n8n 1.x and 2.x, with the packed package installed as n8n's
 * community installer does, against the emulator: Execute in each response mode, Chat
 * Completion plain and streamed, and a Webhook in "Streaming" response mode whose HTTP caller
 * receives the agent's text in several chunks before the run ends.
 * @slow (minutes: started first when jest has no times of a run before)
 * @lines 1.x 2.x (the action node: Wait, Start Only, Stream, Chat Completion on both lines)
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	lastNodeItems,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { loadWorkflow, postToStreamingWebhook, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-executions-key-7d2b';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credExecutions'), name: 'Agent Platform (emulator)' };
const WORKFLOWS = {
	wait: fixtureId('execWait'),
	start: fixtureId('execStart'),
	stream: fixtureId('execStream'),
	completion: fixtureId('chatCompletion'),
	completionStream: fixtureId('chatCompStream'),
	webhook: 'webhookStream001',
};

describeEachLine()('n8n $line ($version): agent executions', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	let settings: { MODEL: string; TOOLS: string; TEMPERATURE: string };

	// Real time: a run lasts 3 s and streams 8 pieces, so chunks are visibly spread out.
	useLineN8n(
		line,
		{
			tag: 'executions',
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 3 },
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: (started) => {
				const first = started.firstOptions(CHAT_AGENT);
				settings = { MODEL: first.model, TOOLS: first.tools, TEMPERATURE: first.temperature };

				const credential = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name };
				const agentNode = (id: string, name: string, parameters: Record<string, unknown>) =>
					loadWorkflow('agent-platform-node', {
						...credential,
						WORKFLOW_ID: id,
						WORKFLOW_NAME: name,
						PARAMETERS: parameters,
					});
				const chat = {
					agentId: { __rl: true, mode: 'id', value: String(CHAT_AGENT) },
					model: settings.MODEL,
					tools: settings.TOOLS,
					temperature: settings.TEMPERATURE,
				};
				const workflows = [
					agentNode(WORKFLOWS.wait, 'Execute (wait)', {
						resource: 'agent',
						operation: 'execute',
						...chat,
						message: 'Hello from n8n',
					}),
					agentNode(WORKFLOWS.start, 'Execute (start only)', {
						resource: 'agent',
						operation: 'execute',
						...chat,
						message: 'Start me',
						responseMode: 'start',
					}),
					agentNode(WORKFLOWS.stream, 'Execute (stream)', {
						resource: 'agent',
						operation: 'execute',
						...chat,
						message: 'Stream me',
						responseMode: 'stream',
					}),
					agentNode(WORKFLOWS.completion, 'Chat Completion', {
						resource: 'agent',
						operation: 'chatCompletion',
						...chat,
						message: 'What is an otter?',
					}),
					agentNode(WORKFLOWS.completionStream, 'Chat Completion (stream)', {
						resource: 'agent',
						operation: 'chatCompletion',
						...chat,
						message: 'What is an otter?',
						stream: true,
					}),
					loadWorkflow('webhook-streaming-execute', {
						...credential,
						...settings,
						AGENT_ID: String(CHAT_AGENT),
					}),
				];
				return workflows;
			},
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	const recordOf = (id: unknown) => emu.state.runs.get(Number(id))!;

	test('Execute, wait for completion: the finished run, simplified', async () => {
		const [item] = lastNodeItems((await n8n.executeOk(fixture.id(WORKFLOWS.wait))).run);
		expect(item).toMatchObject({ status: 'succeeded', agent_id: CHAT_AGENT, root_id: item.id });
		expect(item.output).toBe(recordOf(item.id).output);
		expect(String(item.output)).toContain('Hello from n8n');
	});

	test('Execute, start only: the starting response, finished later on the platform', async () => {
		const [item] = lastNodeItems((await n8n.executeOk(fixture.id(WORKFLOWS.start))).run);
		expect(item).toMatchObject({ status: 'starting', output: '' });
		await emu.waitFor(() => recordOf(item.id).status === 'succeeded', 10_000);
	});

	test('Execute, stream: the deltas assembled into one item', async () => {
		const [item] = lastNodeItems((await n8n.executeOk(fixture.id(WORKFLOWS.stream))).run);
		expect(item.output).toBe(recordOf(item.id).output);
		expect(Number(item.credits)).toBeGreaterThan(0);
	});

	test('Chat Completion, plain and streamed, give the same OpenAI-format answer', async () => {
		const [plain] = lastNodeItems((await n8n.executeOk(fixture.id(WORKFLOWS.completion))).run);
		const [streamed] = lastNodeItems(
			(await n8n.executeOk(fixture.id(WORKFLOWS.completionStream))).run,
		);
		expect(plain.object).toBe('chat.completion');
		expect(String(plain.content).length).toBeGreaterThan(0);
		expect(streamed.content).toBe(plain.content);
		expect((streamed.choices as Array<{ message: { content: string } }>)[0].message.content).toBe(
			plain.content,
		);
	});

	test('a Webhook in "Streaming" response mode: the caller gets the text in several chunks', async () => {
		await fixture.activate(WORKFLOWS.webhook);
		const response = await postToStreamingWebhook(n8n.baseUrl, 'agent-stream', {
			message: 'Tell me about otters',
		});
		expect(response.status).toBe(200);
		const arrivals: Array<{ text: string }> = [];
		const decoder = new TextDecoder();
		for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
			arrivals.push({ text: decoder.decode(chunk, { stream: true }) });
		}
		// n8n streams one JSON object per line: begin, item…, end
		const messages = arrivals
			.map((a) => a.text)
			.join('')
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { type: string; content?: string });
		const items = messages.filter((m) => m.type === 'item');
		expect(items.length).toBeGreaterThan(2);
		const text = items.map((m) => m.content).join('');
		const run = [...emu.state.runs.values()].pop()!;
		expect(text).toBe(run.output);
		expect(text).toContain('Tell me about otters');
		// n8n passed the pieces on as they came, in several writes, not the whole answer in one (how
		// far apart they come is a measurement: test/measure/streaming.measure.test.ts)
		const withContent = arrivals.filter((a) => a.text.includes('"item"'));
		expect(withContent.length).toBeGreaterThan(1);
	});
});
