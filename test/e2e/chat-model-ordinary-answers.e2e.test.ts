/**
 * Ordinary answers stay answers (issue 50), inside real n8n 2.x with the packed package: an AI
 * Agent with tools (the Agent Platform Chat Model, two Code tools) under a Chat Trigger answers a
 * coding question in the chat, streamed and not; its model answers with code and calls no tool
 * (the emulator's `replies`, dev/emulator/scriptedReplies.ts: a known answer, repeated if asked
 * again). Each answer comes from one request; the chat's text is the answer, word for word, and a
 * streamed one comes in pieces over the run, as it is written.
 * n8n 1.x has no AI node SDK (chat-model.e2e.test.ts shows its message): 2.x only.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-ordinary-answers.e2e.test.ts --selectProjects e2e --maxWorkers=1
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import { ORDINARY_ANSWERS } from '../unit/chat-model/ordinary-answers.corpus';
import { chatAgentVars, loadWorkflow, postToStreamingWebhook, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-ordinary-answers-key-50a1';
const CREDENTIAL = { id: fixtureId('credOrdinary'), name: 'Agent Platform (ordinary answers)' };
/** The streaming chat of chat-model-agent-chat, and a copy of it that answers when done. */
const STREAMED_CHAT = '8a1b2c3d-1004-4e5f-8a00-000000000001';
const WHOLE_CHAT = '8a1b2c3d-1050-4e5f-8a00-000000000001';
const WHOLE_WORKFLOW = 'ordinaryAnswers1';

/**
 * A coding answer of the corpus (ordinary-answers.corpus.ts) that names the chat's tools; the
 * corpus's breadth is read by the unit tests, n8n carries one answer whole and streamed.
 */
const ANSWERS = ['lookup defined in python with pytest'].map(
	(about) => ORDINARY_ANSWERS.find((a) => a.about === about)!.answer,
);

describeEachLine(['2.x'])(
	'n8n $line ($version): an AI Agent with tools answers coding questions',
	(line) => {
		let emu: PlatformEmulator;
		let fixture: LineN8n;
		let n8n: N8nInstance;
		const completions = () =>
			emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/openai/chat/completions`);

		useLineN8n(
			line,
			{
				tag: 'chat-model-ordinary-answers',
				emulator: { apiKey: API_KEY, workspaceId: '42', executionSeconds: 2 },
				credentials: (platform) => [
					agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
				],
				workflows: (started) => {
					const vars = {
						...chatAgentVars(started, CHAT_AGENT),
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
					};
					const streamed = loadWorkflow('chat-model-agent-chat', vars);
					const whole = loadWorkflow('chat-model-agent-chat', vars, {
						id: WHOLE_WORKFLOW,
						name: 'AI Agent with tools, answered when done',
					});
					for (const node of whole.nodes)
						if (node.type === '@n8n/n8n-nodes-langchain.chatTrigger') {
							node.webhookId = WHOLE_CHAT;
							node.parameters = { ...node.parameters, options: { responseMode: 'lastNode' } };
						}
					return [streamed, whole];
				},
			},
			async (setUp) => {
				({ emu, fixture, n8n } = setUp);
				await fixture.activate('chatModelAgent02');
				await fixture.activate(WHOLE_WORKFLOW);
			},
		);

		beforeEach(() => emu.clearRequests());
		afterEach(() => emu.configureAgent(CHAT_AGENT, { replies: undefined }));

		async function sendMessage(chat: string, chatInput: string, sessionId: string) {
			const response = await postToStreamingWebhook(
				n8n.baseUrl,
				`${fixture.webhookId(chat)}/chat`,
				{ action: 'sendMessage', sessionId, chatInput },
			);
			expect(response.status).toBe(200);
			return response;
		}

		/** The chat's items of a streamed answer: their content in order, each with when it came. */
		async function streamedItems(chatInput: string, sessionId: string) {
			const response = await sendMessage(STREAMED_CHAT, chatInput, sessionId);
			let buffered = '';
			const decoder = new TextDecoder();
			const items: Array<{ text: string; at: number }> = [];
			for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
				buffered += decoder.decode(chunk, { stream: true });
				const lines = buffered.split('\n');
				buffered = lines.pop() ?? '';
				for (const event of lines.filter((l) => l.trim()).map((l) => JSON.parse(l)))
					if (event.type === 'item')
						items.push({ text: String(event.content ?? ''), at: Date.now() });
					else if (event.type === 'error')
						throw new Error(`the chat showed an error: ${event.content}`);
			}
			return items;
		}

		test.each(ANSWERS.map((answer, i) => [i + 1, answer] as const))(
			'coding answer %i, streamed: the chat shows the answer word for word as it is written, from one request',
			async (i, answer) => {
				emu.configureAgent(CHAT_AGENT, { replies: [answer], streamEvents: 16 });
				const items = await streamedItems('How do I write that in code?', `ordinary-streamed-${i}`);
				const text = items.map((item) => item.text).join('');
				const shown = items.filter((item) => item.text);
				log(
					`n8n ${line.version}: streamed coding answer ${i}: ${text.length} of ${answer.length} characters in ${shown.length} pieces over ${shown.at(-1)!.at - shown[0].at} ms`,
				);
				expect(text).toBe(answer);
				// shown as it was written: in pieces over the run (2 s), not all at its end
				expect(shown.length).toBeGreaterThanOrEqual(4);
				expect(shown[shown.length - 1].at - shown[0].at).toBeGreaterThan(500);
				expect(completions()).toHaveLength(1);
			},
		);

		test.each(ANSWERS.map((answer, i) => [i + 1, answer] as const))(
			'coding answer %i, not streamed: the chat gets the answer word for word, from one request',
			async (i, answer) => {
				emu.configureAgent(CHAT_AGENT, { replies: [answer] });
				const response = await sendMessage(
					WHOLE_CHAT,
					'How do I write that in code?',
					`ordinary-whole-${i}`,
				);
				const body = (await response.json()) as IDataObject;
				expect(body.output).toBe(answer);
				expect(completions()).toHaveLength(1);
			},
		);
	},
);
