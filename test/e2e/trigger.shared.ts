/** The trigger test's fixtures: the platforms and n8n it sets up, its workflows and credentials, and how it reads an execution. */
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	type N8nInstance,
	type N8nLine,
} from '../../dev/n8n/harness';
import { loadWorkflow } from './fixtures';
import { n8nOfLine } from './lineN8n';

export const API_KEY = 'e2e-trigger-key-8d2b61';
export const WORKSPACE_ID = '42';
export const TRIGGER_NODE = 'Agent Platform Trigger';

export const CREDENTIAL = { id: fixtureId('credEmulator'), name: 'Agent Platform (emulator)' };
export const HTTPS_CREDENTIAL = {
	id: fixtureId('credHttpsOnly'),
	name: 'Agent Platform (https webhooks only)',
};

/** One workflow per scenario; each trigger node has its own webhookId, hence its own n8n URL. */
export const WORKFLOWS = {
	main: { id: 'triggerMain00001', webhookId: '5d0b7a7e-0001-4c1e-9a00-000000000001' },
	second: { id: 'triggerSecond001', webhookId: '5d0b7a7e-0002-4c1e-9a00-000000000002' },
	filtered: { id: 'triggerFilter001', webhookId: '5d0b7a7e-0003-4c1e-9a00-000000000003' },
	listen: { id: 'triggerListen001', webhookId: '5d0b7a7e-0004-4c1e-9a00-000000000004' },
	https: { id: 'triggerHttps0001', webhookId: '5d0b7a7e-0005-4c1e-9a00-000000000005' },
} as const;
export type WorkflowKey = keyof typeof WORKFLOWS;

export interface Execution {
	id: string;
	status?: string;
	finished?: boolean;
	mode?: string;
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
		};
	};
}

export interface TriggerSuite {
	emu: PlatformEmulator;
	httpsEmu: PlatformEmulator;
	n8n: N8nInstance;
	/** The id n8n knows a scenario's workflow by, and its trigger node's webhook id. */
	workflowId(key: WorkflowKey): string;
	webhookId(key: WorkflowKey): string;
	/** Stops n8n and removes its folder. */
	release(): Promise<void>;
	/** Text agents: one shared by main and second, one for the filter, one for "listen". */
	agentX: number;
	agentY: number;
	agentZ: number;
}

/**
 * The suite's platforms (an emulator, and one that takes only https webhooks), three text agents,
 * and an n8n of the line's own, started, with an owner, an API key, the credentials and the five
 * workflows.
 */
export async function startTriggerSuite(line: N8nLine): Promise<TriggerSuite> {
	const emu = await startEmulator({
		port: 0,
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		timeScale: 20,
		quiet: true,
	});
	const httpsEmu = await startEmulator({
		port: 0,
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		requireHttpsWebhooks: true,
		quiet: true,
	});
	const textAgents = [...emu.state.agents.values()].filter(
		(a) => a.type === 'text' && !a.failMessage,
	);
	const [agentX, agentY, agentZ] = textAgents.map((a) => a.id);

	const platform = { apiKey: API_KEY, workspaceId: WORKSPACE_ID };
	const workflow = (key: WorkflowKey, agentId: number, options: object, credential = CREDENTIAL) =>
		loadWorkflow('trigger-agent', {
			WORKFLOW_ID: WORKFLOWS[key].id,
			WORKFLOW_NAME: `Agent Platform Trigger (${key})`,
			NODE_ID: WORKFLOWS[key].webhookId,
			WEBHOOK_ID: WORKFLOWS[key].webhookId,
			AGENT_ID: String(agentId),
			OPTIONS: options,
			CREDENTIAL_ID: credential.id,
			CREDENTIAL_NAME: credential.name,
		});
	// what a fresh n8n is tested for here: its restart (the credentials and workflows made through
	// its API, as lineN8n.ts makes them, not by n8n's import commands: seconds of CPU each)
	const fixture = await n8nOfLine(line, {
		tag: 'trigger',
		fresh: true,
		credentials: [
			agentPlatformCredential({ url: emu.url, ...platform }, CREDENTIAL),
			agentPlatformCredential({ url: httpsEmu.url, ...platform }, HTTPS_CREDENTIAL),
		],
		workflows: [
			workflow('main', agentX, {}),
			workflow('second', agentX, { includeHeaders: true }),
			workflow('filtered', agentY, { statuses: ['succeeded', 'completed'] }),
			workflow('listen', agentZ, {}),
			workflow('https', agentX, {}, HTTPS_CREDENTIAL),
		],
	});
	const n8n = fixture.n8n;
	const workflowId = (key: WorkflowKey) => fixture.id(WORKFLOWS[key].id);
	const webhookId = (key: WorkflowKey) => fixture.webhookId(WORKFLOWS[key].webhookId);
	const release = () => fixture.release();
	return { emu, httpsEmu, n8n, workflowId, webhookId, release, agentX, agentY, agentZ };
}

/** The items the trigger node put out in an execution. */
export function itemsOf(execution: Execution): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData?.runData?.[TRIGGER_NODE] ?? [];
	return (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}
