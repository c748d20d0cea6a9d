/**
 * Human approval of a gated tool on the Agent Platform Chat Model, in real n8n 2.41.1 with the
 * packed package (docs/chat-model.md's feature table): a Chat Trigger, the Chat node's approval as
 * the tool's gate. The run waits, the Approve link resumes it, the tool runs with the call the
 * model made, and the model's next request carries that call and its result under the same id; the
 * Disapprove link: the tool does not run, the model is told and answers. The test holds what the
 * node and n8n do, and that the AI Agent's output is the platform's answer, whole.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-model-approval.e2e.test.ts --selectProjects e2e
 */
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential } from '../../dev/n8n/examples';
import { fixtureId, log, sleep, waitFor, type N8nInstance } from '../../dev/n8n/harness';
import { chatAgentVars, describeEachLine, loadWorkflow } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-approval-key-5a2d';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credChatApprove'), name: 'Agent Platform (approval)' };
const WORKFLOW_ID = 'chatModelApprove';
const APPROVAL_WEBHOOK = '8a1b2c3d-1031-4e5f-8a00-000000000001';
const BROWSER =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

type RunData = Record<
	string,
	Array<{ data?: Record<string, Array<Array<{ json: IDataObject }>>>; error?: IDataObject }>
>;

describeEachLine(['2.x'])(
	'n8n $version: human approval of a tool on the platform model',
	(line) => {
		let emu: PlatformEmulator;
		let fixture: LineN8n;
		let n8n: N8nInstance;
		const completions = () => emu.requests.filter((r) => r.path.endsWith('/chat/completions'));

		useLineN8n(
			line,
			{
				tag: 'chat-model-approval',
				emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: 1 },
				credentials: (platform) => [
					agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
				],
				workflows: (started) => [
					loadWorkflow('chat-model-approval', {
						...chatAgentVars(started, CHAT_AGENT),
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
					}),
				],
			},
			async (setUp) => {
				({ emu, fixture, n8n } = setUp);
				await fixture.activate(WORKFLOW_ID);
			},
		);

		beforeEach(() => emu.clearRequests());
		afterEach(() => emu.configureAgent(CHAT_AGENT, { replies: undefined }));

		/**
		 * The model's replies, by hand: the gated tool's call (n8n's human review takes the tool's
		 * fields under `toolParameters`, its own, none here, under `hitlParameters`), then its answer.
		 */
		const replies = (toolParameters: IDataObject, answer: string) =>
			emu.configureAgent(CHAT_AGENT, {
				replies: [
					JSON.stringify({
						tool_call: { name: 'add', arguments: { toolParameters, hitlParameters: {} } },
					}),
					answer,
				],
			});

		type Execution = { status: string; data: { resultData: { runData: RunData } } };

		/** An execution's state once it reaches `status` (public API). */
		async function executionWhen(executionId: string, status: string): Promise<Execution> {
			return await waitFor(`execution ${executionId} to be ${status}`, async () => {
				const found = await n8n.api<Execution>(
					'GET',
					`/executions/${executionId}?includeData=true`,
				);
				return found.status === status ? found : undefined;
			});
		}

		/**
		 * A chat message to the approval workflow, until its execution waits for the person: the
		 * execution's id, and the links of the buttons the Chat node sent into the chat.
		 */
		async function askForApproval(sessionId: string, question: string) {
			let started: Response | undefined;
			for (let attempt = 0; attempt < 40; attempt++) {
				started = await fetch(
					`${n8n.baseUrl}/webhook/${fixture.webhookId(APPROVAL_WEBHOOK)}/chat`,
					{
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: question }),
					},
				);
				if (started.status !== 404) break;
				await sleep(500);
			}
			const { executionId } = (await started!.json()) as { executionId: string };
			const waiting = await executionWhen(executionId, 'waiting');
			const sent = JSON.stringify(waiting.data.resultData.runData['Approve in the chat']);
			log(`n8n ${line.version}: approval asked in the chat: ${sent.slice(0, 600)}`);
			// the buttons' links: n8n's signed waiting-webhook URL with approved=true or approved=false
			const links = [...sent.matchAll(/"link":"([^"]+)"/g)].map((match) => new URL(match[1]));
			const link = (approved: string) =>
				links.find((url) => url.searchParams.get('approved') === approved)?.toString();
			return { executionId, waiting, approve: link('true'), decline: link('false') };
		}

		test("human approval: the run waits for the chat's Approve, then the tool runs with the model's call", async () => {
			const question = 'What is 12 + 30? Use the add tool.';
			replies({ a: 12, b: 30 }, 'Twelve and thirty make 42.');
			const { executionId, waiting, approve } = await askForApproval('approval', question);
			// the model asked for the gated tool once; the Chat node sent its Approve button to the chat
			expect(completions()).toHaveLength(1);
			expect(approve).toBeDefined();
			expect(waiting.data.resultData.runData.add).toBeUndefined();

			// a person clicks Approve: n8n's own waiting webhook resumes the execution
			const clicked = await fetch(approve!, { headers: { 'user-agent': BROWSER } });
			expect(clicked.status).toBe(200);
			const done = await executionWhen(executionId, 'success');
			const runData = done.data.resultData.runData;
			const toolRun = JSON.stringify(runData.add);
			log(`n8n ${line.version}: the gated tool ran: ${toolRun.slice(0, 400)}`);
			expect(toolRun).toContain('42');
			const output = String(runData['AI Agent'].at(-1)!.data!.main[0][0].json.output);
			expect(output).toBe('Twelve and thirty make 42.');
			// the answer's request carries the call as the model made it before the pause, and the
			// tool's result under that call's name: the result's call id matched the call's across it
			expect(completions()).toHaveLength(2);
			const messages = (completions()[1].body as { messages: IDataObject[] }).messages;
			log(
				`n8n ${line.version}: after the approval the model got: ${JSON.stringify(messages.slice(1))}`,
			);
			const call = messages.find((m) => m.role === 'assistant');
			const written = JSON.parse(String(call?.content)) as { tool_call: IDataObject };
			expect(written.tool_call).toMatchObject({
				name: 'add',
				arguments: { toolParameters: { a: 12, b: 30 } },
			});
			const result = messages.find((m) => String(m.content).startsWith('Result of the tool "add"'));
			expect(String(result?.content)).toContain('42');
		});

		test('human approval declined: the tool does not run, the model hears so and answers', async () => {
			replies({ a: 2, b: 3 }, 'You declined: the add tool did not run.');
			const { executionId, decline } = await askForApproval(
				'declined',
				'What is 2 + 3? Use the add tool.',
			);
			expect(decline).toBeDefined();
			const clicked = await fetch(decline!, { headers: { 'user-agent': BROWSER } });
			expect(clicked.status).toBe(200);
			const runData = (await executionWhen(executionId, 'success')).data.resultData.runData;
			expect(runData.add).toBeUndefined();
			expect(completions()).toHaveLength(2);
			const messages = (completions()[1].body as { messages: IDataObject[] }).messages;
			const result = messages.find((m) => String(m.content).startsWith('Result of the tool "add"'));
			// n8n names the call by the id the model's answer gave it, kept across the pause
			expect(String(result?.content)).toMatch(
				/User rejected the tool call to add \(id: agent_platform_call_\w+\)/,
			);
			const output = String(runData['AI Agent'].at(-1)!.data!.main[0][0].json.output);
			log(`n8n ${line.version}: declined, the agent answered: ${output}`);
			expect(output).toBe('You declined: the add tool did not run.');
		});
	},
);
