import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as agent from './agent/Agent.resource';
import * as agentFile from './agentFile/AgentFile.resource';
import * as agentResponse from './agentResponse/AgentResponse.resource';
import * as file from './file/File.resource';
import * as memory from './memory/Memory.resource';
import * as memoryCollection from './memoryCollection/MemoryCollection.resource';
import * as resourceTemplate from './resourceTemplate/ResourceTemplate.resource';
import * as webhook from './webhook/Webhook.resource';
import * as workspace from './workspace/Workspace.resource';
import { readableInChat } from '../transport/chatErrors';
import { asNodeError } from '../transport/errors';
import { runPool } from '../transport/pool';

import type {
	AgentPlatformResource,
	OperationFunction,
	OperationName,
	OperationTable,
} from './node.type';

/** Checked by the compiler against node.type.ts: every operation of every resource has an execute. */
const resources: OperationTable = {
	agent,
	agentFile,
	agentResponse,
	file,
	memory,
	memoryCollection,
	resourceTemplate,
	webhook,
	workspace,
};

/**
 * Old operation values saved workflows may still hold, each run as the operation it was renamed
 * to. A renamed value is never dropped (docs/development.md, "Saved workflows").
 */
export const renamedOperations: {
	[R in AgentPlatformResource]?: Record<string, OperationName<R>>;
} = {
	agentFile: { list: 'getAll' },
};

/** The execute of a resource/operation pair as saved in a workflow, or undefined if there is none. */
export function findOperation(resource: string, operation: string): OperationFunction | undefined {
	const renamed = renamedOperations[resource as AgentPlatformResource]?.[operation];
	const operations = resources[resource as AgentPlatformResource] as
		Record<string, { execute?: OperationFunction }> | undefined;
	const execute = operations?.[renamed ?? operation]?.execute;
	return typeof execute === 'function' ? execute : undefined;
}

function operationFor(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
): OperationFunction {
	const execute = findOperation(resource, operation);
	if (!execute) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return execute;
}

/** The most items processed at once. */
export const MAX_BATCH_SIZE = 100;

/**
 * Node-level, shown for every operation: n8n's own AI nodes call this "Batch Processing → Batch
 * Size" ("how many items to process in parallel"), so users who need it know where to look. No
 * "delay between batches": every request waits in the credential's pace.
 */
export const batchingDescription: INodeProperties = {
	displayName: 'Batch Processing',
	name: 'batching',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Process several input items at once',
	options: [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE, numberPrecision: 0 },
			default: 1,
			description:
				"How many items to process in parallel. The output keeps the input order. Requests still go out at the credential's Requests per Second, shared with every workflow using it.",
		},
	],
};

function batchSizeOf(ctx: IExecuteFunctions, itemCount: number): number {
	if (itemCount <= 1) return 1;
	const raw = Number(ctx.getNodeParameter('batching.batchSize', 0, 1));
	return Number.isFinite(raw) ? Math.min(MAX_BATCH_SIZE, Math.max(1, Math.floor(raw))) : 1;
}

/**
 * Runs the chosen operation for each item, at most Batch Size items at once (default one after
 * another). Each output item is paired with its input item and the output keeps the input order.
 * A failing item either stops the node (naming the item; no further item is started, those
 * already under way finish first, and the lowest failing item is reported) or, with "Continue On
 * Fail" or the error output, becomes an item carrying the error.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = operationFor(this, resource, operation);
	const outputs: INodeExecutionData[][] = new Array(items.length);
	const failure = await runPool(
		() => items.length,
		batchSizeOf(this, items.length),
		async (itemIndex) => {
			try {
				const output = await execute.call(this, itemIndex);
				outputs[itemIndex] = this.helpers.constructExecutionMetaData(output, {
					itemData: { item: itemIndex },
				});
			} catch (error) {
				if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
				// n8n's error output takes an item that carries its error (`error`, n8n 1.x and 2.x), or whose
				// json holds nothing but error/message (1.x) or error/message/details (2.x).
				outputs[itemIndex] = [
					{
						json: {
							error: error.message,
							...(error.description ? { details: error.description } : {}),
						},
						error: asNodeError(this.getNode(), error, itemIndex),
						pairedItem: { item: itemIndex },
					},
				];
			}
		},
	);
	// the error a chat shows (its description) carries the package's words
	if (failure !== undefined)
		throw readableInChat(this, asNodeError(this.getNode(), failure.error, failure.index));
	return [outputs.flat()];
}
