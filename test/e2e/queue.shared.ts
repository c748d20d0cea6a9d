/**
 * The set-up the queue-mode test files share (queue.e2e.test.ts, queue-faults.e2e.test.ts): the
 * emulator, a credential on it, and n8n in queue mode on PostgreSQL (dev/n8n/queueMode.ts) with Webhook →
 * Agent → Execute (Wait) and the Agent Platform Trigger on the same agent, active, plus what each
 * file adds; and what the cases read back (executions, the trigger's webhook, the run starts).
 */
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential, fixtureId, waitFor, type N8nLine } from '../../dev/n8n/harness';
import type { WorkflowFixture } from '../../dev/n8n/examples';
import { loadWorkflow, type Placeholders } from './fixtures';
import { startQueueMode, type QueueMode } from '../../dev/n8n/queueMode';

const WORKSPACE_ID = '42';
export const QUEUE_WORKFLOWS = {
	execute: 'queueExecute0001',
	trigger: 'queueTrigger0001',
} as const;
const TRIGGER_WEBHOOK_ID = '7c1f0a52-0003-4d3b-9e00-0000000000a1';
const TRIGGER_NAME = 'Queue mode: Agent Platform Trigger';

export type Execution = { id: string; status: string; mode: string };

export interface QueueSuite {
	emu: PlatformEmulator;
	queue: QueueMode;
	/** The text agent Execute runs and the trigger listens to. */
	textAgent: number;
	/** Executions of a workflow, newest first, without their data. */
	executions(workflowId: string): Promise<Execution[]>;
	/** Waits until `count` executions of the workflow succeeded; all of them, newest first. */
	finishedExecutions(workflowId: string, count: number): Promise<Execution[]>;
	/** The trigger's production URL: on the webhook processor. */
	triggerUrl(): string;
	/** The platform's webhooks for that URL. */
	triggerWebhooks(): Array<{ url: string }>;
	/** The platform runs of the text agent that were started (answered 200). */
	runStarts(): PlatformEmulator['requests'];
	stop(): Promise<void>;
}

/**
 * Starts the emulator and the queue-mode set-up; `more` gives the file's own workflows (from the
 * placeholders of the text agent and the credential), `activate` their ids to activate too.
 */
export async function startQueueSuite(
	line: N8nLine,
	opts: {
		apiKey: string;
		timeScale: number;
		more?: (vars: Placeholders, emu: PlatformEmulator) => WorkflowFixture[];
		activate?: string[];
		env?: Record<string, string>;
	},
): Promise<QueueSuite> {
	const emu = await startEmulator({
		port: 0,
		apiKey: opts.apiKey,
		workspaceId: WORKSPACE_ID,
		timeScale: opts.timeScale,
		quiet: true,
	});
	const credential = { id: fixtureId('credQueue'), name: 'Agent Platform (queue mode)' };
	const textAgent = [...emu.state.agents.values()].find(
		(a) => a.type === 'text' && !a.failMessage,
	)!.id;
	const vars = {
		AGENT_ID: String(textAgent),
		CREDENTIAL_ID: credential.id,
		CREDENTIAL_NAME: credential.name,
	};
	let queue: QueueMode;
	try {
		queue = await startQueueMode(line, {
			credentials: [
				agentPlatformCredential(
					{ url: emu.url, apiKey: opts.apiKey, workspaceId: WORKSPACE_ID },
					credential,
				),
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
				...(opts.more?.(vars, emu) ?? []),
			],
			activate: [...Object.values(QUEUE_WORKFLOWS), ...(opts.activate ?? [])],
			env: opts.env,
		});
	} catch (error) {
		await emu.stop();
		throw error;
	}
	const executions = async (workflowId: string) =>
		(await queue.main.getExecutions(workflowId, { includeData: false })) as Execution[];
	const triggerUrl = () => `${queue.webhook.baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	const suite: QueueSuite = {
		emu,
		queue,
		textAgent,
		executions,
		finishedExecutions: (workflowId, count) =>
			waitFor(`${count} finished execution(s) of ${workflowId}`, async () => {
				const all = await executions(workflowId);
				return all.filter((e) => e.status === 'success').length >= count ? all : undefined;
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
