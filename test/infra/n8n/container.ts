/** The process-wide set-up n8n-core reads (the @n8n/di container, its temp folder), the node registry (HarnessNodeTypes) and the run-wide data (additionalDataFor). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { HarnessCredentials, HarnessCredentialsHelper } from './credentials';

// ---------------------------------------------------------------------------------------------
// Process-wide setup: the @n8n/di container that n8n-core reads its services from.
// ---------------------------------------------------------------------------------------------

let setup: Promise<string> | undefined;
let userFolder: string | undefined;

/**
 * n8n-core 2.x takes InstanceSettings, Logger, ErrorReporter, OutboundHttp (the HTTP client) and
 * BinaryDataService from the @n8n/di Container; they build themselves from env-driven configs.
 * We point those configs at a temp folder (never ~/.n8n), silence the logger, and init the binary
 * data service in filesystem mode, which is what n8n 2.x uses by default.
 */
export async function ensureN8nContainer(): Promise<string> {
	setup ??= (async () => {
		const folder = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
		userFolder = folder;
		process.env.N8N_USER_FOLDER = folder; // InstanceSettings writes its config file here
		process.env.N8N_LOG_LEVEL ??= 'silent';
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		process.env.N8N_BINARY_DATA_STORAGE_PATH = path.join(folder, 'binaryData');
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'false'; // tests talk to loopback servers
		// Without init() the service has no store and keeps binary inline as base64.
		await Container.get(BinaryDataService).init();
		return folder;
	})();
	return await setup;
}

// Jest loads this module afresh for each test file: remove that file's temp folder when it ends.
if (typeof afterAll === 'function') {
	afterAll(() => {
		if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	});
}

/** n8n's node registry: the node under test and the source node, by their workflow type names. */
export class HarnessNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/**
 * The run-wide data n8n's engine hands every context. Only what an execution of our nodes reads
 * is real; sub-workflows, AI agents, task runners and the like are not available and say so.
 */
export function additionalDataFor(
	credentials: HarnessCredentials,
	extra: Partial<IWorkflowExecuteAdditionalData>,
): IWorkflowExecuteAdditionalData {
	const notAvailable = (what: string) => async () => {
		throw new Error(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper: new HarnessCredentialsHelper({ agentPlatformApi: { ...credentials } }),
		executeWorkflow: notAvailable('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('startRunnerTask'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		...extra,
	} as IWorkflowExecuteAdditionalData;
}
