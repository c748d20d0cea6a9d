/**
 * The one queue-mode set-up of a line that every queue-mode case runs on (queue.cases.ts): the
 * emulator (and one for the rate-limit case: `rateEmu`), the credentials on them, a Redis for
 * n8n's Redis Chat Memory, and n8n in queue mode on PostgreSQL (dev/n8n/queueMode.ts: main, four
 * workers, a webhook processor) with every case's workflows active; and what the cases read back
 * (executions, the worker that ran one, the trigger's webhook, the run starts).
 *
 * One set of settings for all cases: one execution at a time a worker (two executions at once run
 * in two processes: the rate-limit and chat-memory cases), the job lock shortened to 20 s and the
 * stall check to 2 s from their minutes (so that n8n notices a killed worker within the faults
 * case), and the emulator's clock 20 times real time (its rate limits keep real time).
 */
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential, fixtureId, waitFor, type N8nLine } from '../../dev/n8n/harness';
import { startQueueMode, type QueueMode } from '../../dev/n8n/queueMode';
import { startMemoryRedis, type MemoryRedis } from './chatMemory.shared';
import { chatAgentVars, loadWorkflow } from './fixtures';

const API_KEY = 'e2e-queue-key-51c9e0';
const WORKSPACE_ID = '42';
export const QUEUE_WORKFLOWS = {
	execute: 'queueExecute0001',
	trigger: 'queueTrigger0001',
	upload: 'queueUpload00001',
	chat: 'queueChatStream1',
	returnAll: 'queueReturnAll01',
	memoryChat: 'queueMemoryChat1',
} as const;
/** The chat agent of the streamed chat and of the chat with a memory. */
export const CHAT_AGENT = 1;
/** Public Chat Triggers' webhook ids: the streamed chat, the chat with Redis Chat Memory. */
export const CHAT_WEBHOOKS = {
	stream: '7c1f0a52-0005-4d3b-9e00-0000000000a1',
	memory: '6b1d0e20-77aa-4c3d-9e0f-00000000c4a7',
} as const;
const TRIGGER_WEBHOOK_ID = '7c1f0a52-0003-4d3b-9e00-0000000000a1';
const TRIGGER_NAME = 'Queue mode: Agent Platform Trigger';

export type Execution = { id: string; status: string; mode: string; startedAt?: string };

export interface QueueSuite {
	emu: PlatformEmulator;
	/**
	 * The rate-limit case's platform: another address, so that each n8n process keeps a pace of its
	 * own for it (a pace is kept per API key and address), fresh as in a set-up of its own.
	 */
	rateEmu: PlatformEmulator;
	queue: QueueMode;
	/** The Redis of the chat memory (not the queue's). */
	memoryRedis: MemoryRedis;
	/** The text agent Execute runs and the trigger listens to. */
	textAgent: number;
	/** Executions of a workflow, newest first, without their data. */
	executions(workflowId: string): Promise<Execution[]>;
	/** Waits until `count` executions of the workflow succeeded; all of them, newest first. */
	finishedExecutions(workflowId: string, count: number): Promise<Execution[]>;
	/** The index in queue.workers of the worker that ran (finished) the execution. */
	workerOf(executionId: string): Promise<number>;
	/** The trigger's production URL: on the webhook processor. */
	triggerUrl(): string;
	/** The platform's webhooks for that URL. */
	triggerWebhooks(): Array<{ url: string }>;
	/** The platform runs of the text agent that were started (answered 200). */
	runStarts(): PlatformEmulator['requests'];
	stop(): Promise<void>;
}

/** Starts the emulator, the chat memory's Redis and the queue-mode set-up with every workflow. */
export async function startQueueSuite(line: N8nLine): Promise<QueueSuite> {
	const emu = await startEmulator({
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		timeScale: 20,
		quiet: true,
	});
	const rateEmu = await startEmulator({ apiKey: API_KEY, workspaceId: WORKSPACE_ID, quiet: true });
	const credential = { id: fixtureId('credQueue'), name: 'Agent Platform (queue mode)' };
	// at the credential's default Requests per Second (1): the rate-limit case's
	const rateCredential = { id: fixtureId('credQueueRate'), name: 'Agent Platform (default rate)' };
	const textAgent = [...emu.state.agents.values()].find(
		(a) => a.type === 'text' && !a.failMessage,
	)!.id;
	const vars = {
		AGENT_ID: String(textAgent),
		CREDENTIAL_ID: credential.id,
		CREDENTIAL_NAME: credential.name,
	};
	const chatVars = { ...vars, ...chatAgentVars(emu, CHAT_AGENT) };
	const platform = { url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID };
	let memoryRedis: MemoryRedis | undefined;
	let queue: QueueMode;
	try {
		memoryRedis = await startMemoryRedis(fixtureId('credRedisMemory'));
		queue = await startQueueMode(line, {
			credentials: [
				agentPlatformCredential(platform, credential),
				agentPlatformCredential(
					{ ...platform, url: rateEmu.url },
					{ ...rateCredential, requestsPerSecond: null },
				),
				memoryRedis.credential,
			],
			workflows: [
				loadWorkflow('queue-execute', vars),
				loadWorkflow('trigger-agent', {
					...vars,
					WORKFLOW_ID: QUEUE_WORKFLOWS.trigger,
					WORKFLOW_NAME: TRIGGER_NAME,
					NODE_ID: TRIGGER_WEBHOOK_ID,
					WEBHOOK_ID: TRIGGER_WEBHOOK_ID,
					OPTIONS: {},
				}),
				loadWorkflow('queue-upload', vars),
				loadWorkflow('queue-chat-stream', chatVars),
				loadWorkflow('queue-return-all', {
					WORKFLOW_ID: QUEUE_WORKFLOWS.returnAll,
					WORKFLOW_NAME: 'Queue mode: Webhook → Memory Get Many (Return All)',
					NODE_ID: '7c1f0a52-0004-4d3b-9e00-00000000000',
					WEBHOOK_ID: '7c1f0a52-0004-4d3b-9e00-0000000000a1',
					PATH: 'queue-return-all',
					CREDENTIAL_ID: rateCredential.id,
					CREDENTIAL_NAME: rateCredential.name,
				}),
				loadWorkflow('queue-chat-memory', {
					...chatVars,
					REDIS_CREDENTIAL_ID: memoryRedis.credential.id,
				}),
			],
			activate: Object.values(QUEUE_WORKFLOWS),
			workers: 4,
			concurrency: 1,
			env: {
				// a busy worker renews its lock late: at 5 s a loaded CI machine's worker lost a chat's
				// execution as stalled (n8n 2.x fails a stalled job at once)
				QUEUE_WORKER_LOCK_DURATION: '20000',
				QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
				QUEUE_WORKER_STALLED_INTERVAL: '2000',
			},
		});
	} catch (error) {
		await memoryRedis?.stop();
		await rateEmu.stop();
		await emu.stop();
		throw error;
	}
	const executions = async (workflowId: string) =>
		(await queue.main.getExecutions(workflowId, { includeData: false })) as Execution[];
	const triggerUrl = () => `${queue.webhook.baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	const suite: QueueSuite = {
		emu,
		rateEmu,
		queue,
		memoryRedis: memoryRedis!,
		textAgent,
		executions,
		finishedExecutions: (workflowId, count) =>
			waitFor(`${count} finished execution(s) of ${workflowId}`, async () => {
				const all = await executions(workflowId);
				return all.filter((e) => e.status === 'success').length >= count ? all : undefined;
			}),
		workerOf: (executionId) =>
			waitFor(`the worker that ran execution ${executionId}`, () => {
				const finished = `Worker finished execution ${executionId} `;
				const index = queue.workers.findIndex((w) => w.log().includes(finished));
				return index >= 0 ? index : undefined;
			}),
		triggerUrl,
		triggerWebhooks: () =>
			[...emu.state.webhooks.values()].filter((w) => w.url.startsWith(triggerUrl())),
		runStarts: () =>
			emu.requests.filter(
				(r) => r.method === 'POST' && r.path === `/agents/${textAgent}/execute` && r.status === 200,
			),
		async stop() {
			await queue.stop();
			await memoryRedis!.stop();
			await rateEmu.stop();
			await emu.stop();
		},
	};
	await waitFor('the trigger webhook on the platform', () => suite.triggerWebhooks().length > 0);
	return suite;
}

/**
 * The execution of the trigger's workflow that the platform's delivery of run `runId` started, with
 * the trigger's item (undefined until there is one).
 */
export async function triggerExecutionOf(
	queue: QueueMode,
	runId: number,
): Promise<{ id: string; item: { id?: number; status?: string } } | undefined> {
	const withData = (await queue.main.getExecutions(QUEUE_WORKFLOWS.trigger)) as Array<{
		id: string;
		data?: {
			resultData?: {
				runData?: Record<
					string,
					Array<{ data?: { main?: Array<Array<{ json: { id?: number; status?: string } }>> } }>
				>;
			};
		};
	}>;
	for (const execution of withData) {
		const item =
			execution.data?.resultData?.runData?.['Agent Platform Trigger']?.[0]?.data?.main?.[0]?.[0]
				?.json;
		if (item?.id === runId) return { id: execution.id, item };
	}
	return undefined;
}
