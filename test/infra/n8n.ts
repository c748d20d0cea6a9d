/**
 * In-process test harness: runs this package's nodes through n8n's real execution machinery.
 *
 * A run is a two-node workflow, `Items` (a tiny source node defined here) → the node under test,
 * executed by n8n-core's own `WorkflowExecute`. The node gets n8n-core's real `ExecuteContext`
 * (getNodeParameter, continueOnFail, pairedItem handling, error output, binary helpers,
 * isStreaming/sendChunk, the execution's cancel signal), and its HTTP goes through n8n-core's real
 * `httpRequestWithAuthentication` → `@n8n/backend-network`'s axios client, over real sockets.
 *
 * What is ours and not n8n's: the node/credential registry (`HarnessNodeTypes`), the credentials
 * store (`HarnessCredentialsHelper`, which holds plain test credentials instead of encrypted ones
 * in a database) and the run-wide settings (`additionalData`). Everything else is n8n-core's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Container } from '@n8n/di';
import {
	BinaryDataService,
	ExecutionLifecycleHooks,
	HookContext,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	ExecutionError,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	ResourceMapperFields,
	StructuredChunk,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	ICredentialsHelper,
	isExpression,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { AgentPlatformApi } from '../../credentials/AgentPlatformApi.credentials';
import { AgentPlatform } from '../../nodes/AgentPlatform/AgentPlatform.node';
import { AgentPlatformTrigger } from '../../nodes/AgentPlatform/AgentPlatformTrigger.node';

import { NODE_TYPES, PACKAGE_NAME } from '../../dev/constants';

export { PACKAGE_NAME };
export const AGENT_PLATFORM_NODE_TYPE = NODE_TYPES.action;
const SOURCE_NODE_TYPE = 'harness.items';
const SOURCE_NODE_NAME = 'Items';
const NODE_UNDER_TEST_NAME = 'Agent Platform';

export interface HarnessCredentials {
	baseUrl: string;
	apiKey: string;
	workspaceId: string;
	requestsPerSecond?: number;
}

/**
 * Requests per Second of the test credentials unless a test sets its own: high enough that the
 * pace (transport/pace/) never holds back a test that is not about rate limits.
 */
export const UNPACED_REQUESTS_PER_SECOND = 1000;

/** The credentials of an emulator or any `{ url, apiKey, workspaceId }` server. */
export function credentialsFor(
	server: { url: string; apiKey: string; workspaceId: string | number },
	requestsPerSecond = UNPACED_REQUESTS_PER_SECOND,
): HarnessCredentials {
	return {
		baseUrl: server.url,
		apiKey: server.apiKey,
		workspaceId: String(server.workspaceId),
		requestsPerSecond,
	};
}

/** A resource locator's value as n8n's editor stores it: an ID typed in, or an entry picked from the list. */
export const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
export const fromList = (value: string | number) => ({
	__rl: true,
	mode: 'list',
	value: String(value),
	cachedResultName: 'x',
});

export interface StreamChunk {
	type: string;
	content?: string;
	itemIndex?: number;
	nodeName?: string;
}

export interface RunNodeOptions {
	/** The node's parameters, as a workflow JSON would hold them. */
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	/**
	 * Input items; defaults to one empty item. Binary made with `binaryItem()` is moved into n8n's
	 * binary store (filesystem mode, in a temp dir) by `prepareBinaryData` before the node runs.
	 */
	items?: INodeExecutionData[];
	/** The node's "Continue On Fail" (the legacy switch; n8n maps it to onError continueRegularOutput). */
	continueOnFail?: boolean;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Makes `isStreaming()` true (manual mode + streamingEnabled + a sendChunk hook) and receives every chunk. */
	streaming?: { onChunk(chunk: StreamChunk): void };
	/** Cancels the execution after this long, as n8n's "Stop execution" does: the node's cancel signal aborts. */
	cancelAfterMs?: number;
	/** The node type to run; defaults to the Agent Platform node. */
	nodeType?: INodeType;
	typeVersion?: number;
}

export interface RunNodeResult {
	/** The node's outputs (index 0 = main output; 1 = error output with onError 'continueErrorOutput'). */
	outputs: INodeExecutionData[][];
	/**
	 * Set when n8n's run ended in error: the error instance the node threw (n8n itself keeps only a
	 * plain-object copy, in `run`), or n8n's own error when the node threw none.
	 */
	error?: Error;
	/** The whole run, for anything else a test wants to look at. */
	run: IRun;
	/** Whether the execution was cancelled (cancelAfterMs fired before the run ended). */
	cancelled: boolean;
	/** How many times the run read (in n8n: looked up and decrypted) its credential. */
	credentialReads: number;
}

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
async function ensureN8nContainer(): Promise<string> {
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

// ---------------------------------------------------------------------------------------------
// Node and credential types
// ---------------------------------------------------------------------------------------------

/**
 * The `Items` source node (n8n-nodes-base's Manual Trigger is not installed here): emits the run's
 * input items, first moving inline binary into n8n's binary store with the real prepareBinaryData.
 */
function itemsSource(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Items',
			name: SOURCE_NODE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Emits the test items',
			defaults: { name: SOURCE_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const output: INodeExecutionData[] = [];
			for (const item of items) {
				const copy: INodeExecutionData = { json: { ...item.json } };
				if (item.binary) {
					copy.binary = {};
					for (const [key, data] of Object.entries(item.binary)) {
						const buffer = Buffer.from(data.data, 'base64');
						copy.binary[key] = data.id
							? data
							: await this.helpers.prepareBinaryData(buffer, data.fileName, data.mimeType);
					}
				}
				output.push(copy);
			}
			return [output];
		},
	};
}

/** An item whose binary property holds the buffer; the source node puts it into n8n's binary store. */
export function binaryItem(
	buffer: Buffer,
	options: { fileName?: string; mimeType?: string; property?: string; json?: IDataObject } = {},
): INodeExecutionData {
	return {
		json: options.json ?? {},
		binary: {
			[options.property ?? 'data']: {
				data: buffer.toString('base64'),
				mimeType: options.mimeType ?? 'application/octet-stream',
				fileName: options.fileName,
			},
		},
	};
}

/** n8n's node registry: the node under test and the source node, by their workflow type names. */
class HarnessNodeTypes implements INodeTypes {
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

const credentialTypes: Record<string, ICredentialType> = {
	agentPlatformApi: new AgentPlatformApi(),
};

/**
 * n8n's credentials store, reduced to what a run uses: it hands out the test credentials
 * (getDecrypted) and applies the credential type's `authenticate`, resolving generic auth's
 * `={{$credentials.x}}` with n8n-workflow's own expression engine exactly as n8n's CLI does.
 */
class HarnessCredentialsHelper extends ICredentialsHelper {
	/** getDecrypted calls: in n8n each is a database lookup and a decryption. */
	reads = 0;

	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return []; // none of ours extends oAuth2Api / oAuth1Api
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Generic credential authentication needs the workflow and node');
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			for (const [where, entries] of Object.entries(authenticate.properties)) {
				const target = requestOptions as unknown as Record<
					string,
					Record<string, unknown> | undefined
				>;
				target[where] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[where]![resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined; // no expirable token in our credential
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		throw new Error(`The harness keeps no encrypted credentials (${type} ${nodeCredentials.name})`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = this.credentials[type];
		if (!credentials) throw new Error(`No test credentials of type ${type}`);
		this.reads++;
		return { ...credentials };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialType(type).properties;
	}

	private credentialType(name: string): ICredentialType {
		const type = credentialTypes[name];
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}
}

/**
 * The run-wide data n8n's engine hands every context. Only what an execution of our nodes reads
 * is real; sub-workflows, AI agents, task runners and the like are not available and say so.
 */
function additionalDataFor(
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

let executionCounter = 0;

/** The node type with its execute() wrapped to see the error instance it throws (n8n stores a copy). */
function recordingErrors(nodeType: INodeType, record: (error: Error) => void): INodeType {
	const execute = nodeType.execute;
	if (!execute) return nodeType;
	const wrapped = Object.create(nodeType) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		try {
			return await execute.call(this);
		} catch (error) {
			record(error as Error);
			throw error;
		}
	};
	return wrapped;
}

function nodeUnderTest(options: {
	parameters: INodeParameters;
	typeVersion?: number;
	continueOnFail?: boolean;
	onError?: RunNodeOptions['onError'];
}): INode {
	return {
		id: 'node-under-test',
		name: NODE_UNDER_TEST_NAME,
		type: AGENT_PLATFORM_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { agentPlatformApi: { id: 'test-credential', name: 'Agent Platform (test)' } },
		...(options.continueOnFail !== undefined ? { continueOnFail: options.continueOnFail } : {}),
		...(options.onError ? { onError: options.onError } : {}),
	};
}

/**
 * A saved Agent Platform node (or its Tool variant, which n8n builds from the same description) as
 * n8n's engine loads it (the Workflow constructor): its parameters with the defaults of its version
 * filled in and any parameter its description does not show for it dropped.
 */
export function loadSavedNode(node: INode): INodeParameters {
	const copy: INode = { ...node, parameters: structuredClone(node.parameters) };
	const workflow = new Workflow({
		nodes: [copy],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes({ [node.type]: new AgentPlatform() }),
	});
	return workflow.getNode(node.name)!.parameters;
}

// ---------------------------------------------------------------------------------------------
// runNode
// ---------------------------------------------------------------------------------------------

/** Runs the node once, in manual mode, through n8n-core's WorkflowExecute. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureN8nContainer();
	let thrown: Error | undefined;
	const nodeTypes = new HarnessNodeTypes({
		[SOURCE_NODE_TYPE]: itemsSource(options.items ?? [{ json: {} }]),
		[AGENT_PLATFORM_NODE_TYPE]: recordingErrors(
			options.nodeType ?? new AgentPlatform(),
			(error) => {
				thrown = error;
			},
		),
	});
	const node = nodeUnderTest(options);
	const sourceNode: INode = {
		id: 'items',
		name: SOURCE_NODE_NAME,
		type: SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const connections = {
		[SOURCE_NODE_NAME]: {
			main: [[{ node: NODE_UNDER_TEST_NAME, type: NodeConnectionTypes.Main, index: 0 }]],
		},
	};
	const workflowId = 'harness-workflow';
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness',
		nodes: [sourceNode, node],
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const executionId = `harness-${process.pid}-${++executionCounter}`;
	const workflowData = {
		id: workflowId,
		name: 'Harness',
		nodes: [sourceNode, node],
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	} as unknown as IWorkflowBase;
	// Lifecycle hooks: n8n-core reports through them; a sendChunk handler is what makes streaming on.
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	if (options.streaming) {
		const { onChunk } = options.streaming;
		hooks.addHandler('sendChunk', (chunk: StructuredChunk) => {
			onChunk({
				type: chunk.type,
				content: chunk.content,
				itemIndex: chunk.metadata?.itemIndex,
				nodeName: chunk.metadata?.nodeName,
			});
		});
	}
	const additionalData = additionalDataFor(options.credentials, {
		hooks,
		executionId,
		workflowId,
		streamingEnabled: options.streaming !== undefined,
	});
	const credentialReads = () =>
		(additionalData.credentialsHelper as HarnessCredentialsHelper).reads;

	// The run starts at the source node, as a manual run starts at its trigger.
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: sourceNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	const startedAt = new Date();
	let execution: ReturnType<WorkflowExecute['processRunExecutionData']>;
	try {
		execution = workflowExecute.processRunExecutionData(workflow);
	} catch (refused) {
		// n8n refuses to start a run whose nodes have issues (e.g. a parameter failing its
		// validation): WorkflowHasIssuesError. n8n's WorkflowRunner records that as a failed run.
		const error = refused as Error;
		const run: IRun = {
			data: createRunExecutionData({
				resultData: {
					error: { ...error, message: error.message, stack: error.stack } as ExecutionError,
					runData: {},
				},
				executionData: null,
			}),
			finished: false,
			mode: 'manual',
			startedAt,
			stoppedAt: new Date(),
			status: 'error',
			storedAt: 'db',
		};
		return { outputs: [], error, run, cancelled: false, credentialReads: credentialReads() };
	}
	let cancelled = false;
	const timer =
		options.cancelAfterMs !== undefined
			? setTimeout(() => {
					cancelled = true;
					execution.cancel();
				}, options.cancelAfterMs)
			: undefined;
	let run: IRun;
	try {
		run = await execution;
	} finally {
		if (timer) clearTimeout(timer);
	}

	const taskData = run.data.resultData.runData[NODE_UNDER_TEST_NAME]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []);
	// n8n keeps a plain-object copy of the error in the run data; give the instance the node threw.
	const failed = run.data.resultData.error;
	const error = failed ? (thrown ?? ((taskData?.error ?? failed) as Error)) : undefined;
	return { outputs, error, run, cancelled, credentialReads: credentialReads() };
}

// ---------------------------------------------------------------------------------------------
// listSearch / loadOptions
// ---------------------------------------------------------------------------------------------

export interface LoadOptionsRunOptions {
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	/** The parameter the method fills, as n8n's editor sends it (e.g. `parameters.agentId`). */
	path?: string;
	nodeType?: INodeType;
}

/**
 * A node type of a test's own (run with `runNode({ nodeType })`), for what the Agent Platform node
 * does not do itself: `execute` gets n8n's real execute context.
 */
export function probeNodeType(
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>,
	credentials: INodeTypeDescription['credentials'] = undefined,
): INodeType {
	return {
		description: {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Test probe',
			defaults: { name: 'Probe' },
			inputs: ['main'],
			outputs: ['main'],
			...(credentials ? { credentials } : {}),
			properties: [],
		},
		execute,
	};
}

/** n8n-core's real ILoadOptionsFunctions for the node, as n8n's dynamic-parameters endpoint builds it. */
async function loadOptionsContext(options: LoadOptionsRunOptions): Promise<{
	context: ILoadOptionsFunctions;
	nodeType: INodeType;
}> {
	await ensureN8nContainer();
	const nodeType = options.nodeType ?? new AgentPlatform();
	const node = nodeUnderTest({ parameters: options.parameters });
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes({ [AGENT_PLATFORM_NODE_TYPE]: nodeType }),
	});
	const additionalData = additionalDataFor(options.credentials, {
		currentNodeParameters: options.parameters,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData, options.path ?? '');
	return { context, nodeType };
}

/** Runs one of the node's `methods.listSearch` functions, as the resource locator's search box does. */
export async function listSearch(
	method: string,
	options: LoadOptionsRunOptions & { filter?: string; paginationToken?: string },
): Promise<INodeListSearchResult> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.listSearch?.[method];
	if (!fn) throw new Error(`The node has no listSearch method "${method}"`);
	return await fn.call(context, options.filter, options.paginationToken);
}

/** Runs one of the node's `methods.loadOptions` functions, as an options dropdown does. */
export async function loadOptions(
	method: string,
	options: LoadOptionsRunOptions,
): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.loadOptions?.[method];
	if (!fn) throw new Error(`The node has no loadOptions method "${method}"`);
	return await fn.call(context);
}

/** Runs one of the node's `methods.resourceMapping` functions, as a resource mapper's field list does. */
export async function resourceMapping(
	method: string,
	options: LoadOptionsRunOptions,
): Promise<ResourceMapperFields> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.resourceMapping?.[method];
	if (!fn) throw new Error(`The node has no resourceMapping method "${method}"`);
	return await fn.call(context);
}

// ---------------------------------------------------------------------------------------------
// A trigger's webhook lifecycle (checkExists / create / delete)
// ---------------------------------------------------------------------------------------------

export const AGENT_PLATFORM_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.agentPlatformTrigger`;

export interface TriggerLifecycle {
	/** n8n's production URL of the trigger's webhook (without the secret). */
	webhookUrl: string;
	/** The node's static data, kept across calls as n8n keeps it with the workflow. */
	staticData(): IDataObject;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	delete(): Promise<boolean>;
	/** What n8n does on activation: checkExists, then create when it answered false. */
	activate(): Promise<'kept' | 'created'>;
}

/**
 * The trigger's webhook methods on n8n-core's real HookContext (as n8n's activation builds it),
 * in trigger mode, all on one workflow so that the node's static data lives across the calls.
 */
export async function triggerLifecycle(options: {
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	webhookId?: string;
	nodeType?: INodeType;
}): Promise<TriggerLifecycle> {
	await ensureN8nContainer();
	const nodeType = options.nodeType ?? new AgentPlatformTrigger();
	const node: INode = {
		id: 'trigger-under-test',
		name: 'Agent Platform Trigger',
		type: AGENT_PLATFORM_TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		webhookId: options.webhookId ?? '5d0b7a7e-0000-4c1e-9a00-00000000f00d',
		credentials: { agentPlatformApi: { id: 'test-credential', name: 'Agent Platform (test)' } },
	};
	const workflow = new Workflow({
		id: 'harness-trigger-workflow',
		name: 'Harness trigger',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new HarnessNodeTypes({ [AGENT_PLATFORM_TRIGGER_NODE_TYPE]: nodeType }),
		staticData: {},
		settings: { executionOrder: 'v1' },
	});
	const additionalData = additionalDataFor(options.credentials, {});
	const methods = nodeType.webhookMethods?.default;
	if (!methods) throw new Error('The node has no default webhook methods');
	const call = async (method: 'checkExists' | 'create' | 'delete'): Promise<boolean> => {
		const context = new HookContext(workflow, node, additionalData, 'trigger', 'activate');
		return await methods[method].call(context);
	};
	const context = new HookContext(workflow, node, additionalData, 'trigger', 'activate');
	const lifecycle: TriggerLifecycle = {
		webhookUrl: context.getNodeWebhookUrl('default') ?? '',
		staticData: () => workflow.getStaticData('node', node) as IDataObject,
		checkExists: async () => await call('checkExists'),
		create: async () => await call('create'),
		delete: async () => await call('delete'),
		activate: async () =>
			(await call('checkExists')) ? 'kept' : (await call('create'), 'created'),
	};
	return lifecycle;
}
