/**
 * n8n in queue mode (scaling mode): Redis, an n8n main process and one `n8n worker`, each n8n
 * process with its own user folder and its own copy of the package (installed as n8n's community
 * installer does: every n8n process needs it), sharing the database and the encryption key.
 *
 * Three workflows, activated on the main process: Webhook → Agent → Execute (wait), Webhook (a
 * file) → File → Upload, and the Agent Platform Trigger on the agent the first one runs. The main
 * process receives the webhooks and the platform's delivery and enqueues each execution in Redis;
 * the test checks that the worker ran every one of them: the worker's log says "Worker started
 * execution <id>" and "Worker finished execution <id>" for each execution n8n records, and the
 * main's log says it enqueued them (these are n8n's own info-level log lines, in 1.x and 2.x).
 *
 * Database: SQLite, one file shared by main and worker. n8n warns that scaling mode "is not
 * officially supported with sqlite" (PostgreSQL is recommended for production) but runs it;
 * for a test of the package on a worker it is enough, and needs nothing more than Redis.
 * Binary data stays in each line's queue-mode default (1.x: in the execution data; 2.x: in the
 * database), the modes that work across processes.
 *
 * Redis: Debian's redis-server (.ci/run installs it when missing), started on a free loopback port
 * with a temporary directory and no persistence, stopped at the end.
 *
 * Run: npx jest --selectProjects e2e --runInBand --runTestsByPath test/e2e/queue.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 */
import { createHash, randomBytes } from 'node:crypto';

import { startEmulator, type PlatformEmulator, type RecordedMultipart } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	log,
	selectedLines,
	waitFor,
	type N8nLine,
} from '../../dev/n8n/harness';
import { loadWorkflow } from './fixtures';
import { startQueueMode, type QueueMode, type Worker } from './queueMode';

const API_KEY = 'e2e-queue-key-51c9e0';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credQueue'), name: 'Agent Platform (queue mode)' };
const WORKFLOWS = {
	execute: 'queueExecute0001',
	upload: 'queueUpload00001',
	trigger: 'queueTrigger0001',
} as const;
const TRIGGER_WEBHOOK_ID = '7c1f0a52-0003-4d3b-9e00-0000000000a1';

describe.each(selectedLines())(
	'n8n $line ($version) in queue mode: main + worker + Redis',
	(line: N8nLine) => {
		let emu: PlatformEmulator;
		let queue: QueueMode | undefined;
		let main: QueueMode['main'] | undefined;
		let worker: Worker | undefined;
		let textAgent: number;
		let started = Date.now();

		beforeAll(async () => {
			started = Date.now(); // describe.each collects both lines at once
			emu = await startEmulator({
				port: 0,
				apiKey: API_KEY,
				workspaceId: WORKSPACE_ID,
				timeScale: 20,
				quiet: true,
			});
			textAgent = [...emu.state.agents.values()].find(
				(a) => a.type === 'text' && !a.failMessage,
			)!.id;
			const vars = {
				AGENT_ID: String(textAgent),
				CREDENTIAL_ID: CREDENTIAL.id,
				CREDENTIAL_NAME: CREDENTIAL.name,
			};
			queue = await startQueueMode(line, {
				credentials: [
					agentPlatformCredential(
						{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
						CREDENTIAL,
					),
				],
				workflows: [
					loadWorkflow('queue-execute', vars),
					loadWorkflow('queue-upload', vars),
					loadWorkflow('trigger-agent', {
						...vars,
						WORKFLOW_ID: WORKFLOWS.trigger,
						WORKFLOW_NAME: 'Queue mode: Agent Platform Trigger',
						NODE_ID: TRIGGER_WEBHOOK_ID,
						WEBHOOK_ID: TRIGGER_WEBHOOK_ID,
						OPTIONS: {},
					}),
				],
				activate: Object.values(WORKFLOWS),
			});
			main = queue.main;
			worker = queue.workers[0];
			log(
				`n8n ${line.version} queue mode: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		});

		afterAll(async () => {
			await queue?.stop();
			await emu?.stop();
			log(`n8n ${line.version} queue mode: took ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});

		async function finishedExecutions(
			workflowId: string,
			count: number,
		): Promise<Array<{ id: string; status: string; mode: string }>> {
			return await waitFor(
				`${count} finished execution(s) of ${workflowId}`,
				async () => {
					const executions = (await main!.getExecutions(workflowId, {
						includeData: false,
					})) as Array<{ id: string; status: string; mode: string }>;
					return executions.filter((e) => e.status === 'success').length >= count
						? executions
						: undefined;
				},
				{ timeoutMs: 60_000, intervalMs: 300 },
			);
		}

		/** n8n's own log lines: the main enqueued the execution, the worker started and finished it. */
		async function expectRunByWorker(executionId: string): Promise<void> {
			await waitFor(`the worker to log the end of execution ${executionId}`, () =>
				worker!.log().includes(`Worker finished execution ${executionId} `),
			);
			expect(worker!.log()).toContain(`Worker started execution ${executionId} `);
			expect(main!.logText()).toContain(`Enqueued execution ${executionId} `);
			expect(main!.logText()).not.toContain(`Worker started execution ${executionId} `);
		}

		test('the trigger registers its webhook on the platform from the main process', async () => {
			await waitFor('the trigger webhook on the platform', () =>
				[...emu.state.webhooks.values()].some((w) =>
					w.url.startsWith(`${main!.baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`),
				),
			);
		});

		test('Webhook → File → Upload: the worker streams the file the main process received', async () => {
			const bytes = randomBytes(256 * 1024 + 17);
			const response = await fetch(`${main!.baseUrl}/webhook/queue-upload`, {
				method: 'POST',
				headers: {
					'content-type': 'application/octet-stream',
					'content-disposition': 'attachment; filename="queue notes.txt"',
				},
				body: bytes,
			});
			const text = await response.text();
			expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: 200 });
			const file = JSON.parse(text) as { id: number; filename: string; bytes: number };
			expect(file).toMatchObject({ filename: 'queue notes.txt', bytes: bytes.length });
			const upload = emu.requests.find(
				(r) => r.method === 'POST' && r.path === '/files' && r.status === 200,
			)!;
			const received = (upload.body as RecordedMultipart).files[0];
			expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

			const [execution] = await finishedExecutions(WORKFLOWS.upload, 1);
			await expectRunByWorker(execution.id);
		});

		test('Webhook → Agent → Execute, and the Agent Platform Trigger its finished run starts: both run by the worker', async () => {
			const response = await fetch(`${main!.baseUrl}/webhook/queue-execute`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ topic: 'queue mode' }),
			});
			const text = await response.text();
			expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: 200 });
			const run = JSON.parse(text) as { id: number; status: string; output: string };
			expect(run.status).toBe('succeeded');
			expect(run.output).toContain('queue mode');

			const [execution] = await finishedExecutions(WORKFLOWS.execute, 1);
			await expectRunByWorker(execution.id);

			// the platform delivers the finished run to the trigger's webhook on the main process
			const [triggered] = await finishedExecutions(WORKFLOWS.trigger, 1);
			await expectRunByWorker(triggered.id);
			const withData = (await main!.getExecutions(WORKFLOWS.trigger)) as Array<{
				id: string;
				data?: {
					resultData?: {
						runData?: Record<
							string,
							Array<{ data?: { main?: Array<Array<{ json: { id?: number } }>> } }>
						>;
					};
				};
			}>;
			const delivered = withData.find((e) => e.id === triggered.id)?.data?.resultData?.runData?.[
				'Agent Platform Trigger'
			]?.[0]?.data?.main?.[0]?.[0]?.json;
			expect(delivered?.id).toBe(run.id);
		});
	},
);
