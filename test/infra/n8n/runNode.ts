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
 *
 * This file: runNode: the node run once, in manual mode, as a two-node workflow (Items → the node under test) through n8n-core's WorkflowExecute; loadSavedNode: a saved node as n8n's engine loads it.
 */ import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IWorkflowBase,
	StructuredChunk,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import {
	AGENT_PLATFORM_NODE_TYPE,
	SOURCE_NODE_TYPE,
	SOURCE_NODE_NAME,
	NODE_UNDER_TEST_NAME,
	HarnessCredentials,
	HarnessCredentialsHelper,
} from './credentials';
import { ensureN8nContainer, HarnessNodeTypes, additionalDataFor } from './container';

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
	/** Cancels the execution once this resolves (say, when the server has the request), as cancelAfterMs does. */
	cancelWhen?: Promise<unknown>;
	/** The node type to run; defaults to the Agent Platform node. */
	nodeType?: INodeType;
	typeVersion?: number;
	/** n8n's execution mode (default `manual`, a run from the editor); e.g. `trigger` for a schedule's. */
	mode?: WorkflowExecuteMode;
	/** A memory sub-node connected to the node's Memory input (chatMemory.ts); `workflowId` for another workflow. */
	memory?: { nodeType: INodeType; workflowId?: string };
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
	/** Whether the execution was cancelled (cancelAfterMs or cancelWhen before the run ended). */
	cancelled: boolean;
	/** How many times the run read (in n8n: looked up and decrypted) its credential. */
	credentialReads: number;
}

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

let executionCounter = 0;

const MEMORY_NODE_TYPE = 'testMemory';
/** The name of the memory sub-node of a run with `memory`. */
export const MEMORY_NODE_NAME = 'Memory';
const memoryNode: INode = {
	id: 'memory',
	name: MEMORY_NODE_NAME,
	type: MEMORY_NODE_TYPE,
	typeVersion: 1,
	position: [200, 200],
	parameters: {},
};

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

export function nodeUnderTest(options: {
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

/** Runs the node once, in manual mode unless `mode` says otherwise, through n8n-core's WorkflowExecute. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureN8nContainer();
	let thrown: Error | undefined;
	const nodeTypes = new HarnessNodeTypes({
		[SOURCE_NODE_TYPE]: itemsSource(options.items ?? [{ json: {} }]),
		...(options.memory ? { [MEMORY_NODE_TYPE]: options.memory.nodeType } : {}),
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
	const connections: IConnections = {
		[SOURCE_NODE_NAME]: {
			main: [[{ node: NODE_UNDER_TEST_NAME, type: NodeConnectionTypes.Main, index: 0 }]],
		},
	};
	const nodes = [sourceNode, node];
	if (options.memory) {
		nodes.push({ ...memoryNode, parameters: {} });
		connections[memoryNode.name] = {
			[NodeConnectionTypes.AiMemory]: [
				[{ node: NODE_UNDER_TEST_NAME, type: NodeConnectionTypes.AiMemory, index: 0 }],
			],
		};
	}
	const workflowId = options.memory?.workflowId ?? 'harness-workflow';
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const executionId = `harness-${process.pid}-${++executionCounter}`;
	const workflowData = {
		id: workflowId,
		name: 'Harness',
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	} as unknown as IWorkflowBase;
	// Lifecycle hooks: n8n-core reports through them; a sendChunk handler is what makes streaming on.
	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
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

	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
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
			mode,
			startedAt,
			stoppedAt: new Date(),
			status: 'error',
			storedAt: 'db',
		};
		return { outputs: [], error, run, cancelled: false, credentialReads: credentialReads() };
	}
	let cancelled = false;
	let ended = false;
	const cancel = () => {
		if (ended) return;
		cancelled = true;
		execution.cancel();
	};
	const timer =
		options.cancelAfterMs !== undefined ? setTimeout(cancel, options.cancelAfterMs) : undefined;
	// a condition never met cancels too: the test's checks then say what did not happen
	void options.cancelWhen?.then(cancel, cancel);
	let run: IRun;
	try {
		run = await execution;
	} finally {
		ended = true;
		if (timer) clearTimeout(timer);
	}

	const taskData = run.data.resultData.runData[NODE_UNDER_TEST_NAME]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []);
	// n8n keeps a plain-object copy of the error in the run data; give the instance the node threw.
	const failed = run.data.resultData.error;
	const error = failed ? (thrown ?? ((taskData?.error ?? failed) as Error)) : undefined;
	return { outputs, error, run, cancelled, credentialReads: credentialReads() };
}
