import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as agent from './agent/Agent.resource';
import * as agentFile from './agentFile/AgentFile.resource';
import * as agentResponse from './agentResponse/AgentResponse.resource';
import * as file from './file/File.resource';
import * as memory from './memory/Memory.resource';
import * as memoryCollection from './memoryCollection/MemoryCollection.resource';
import * as resourceTemplate from './resourceTemplate/ResourceTemplate.resource';
import * as webhook from './webhook/Webhook.resource';

type OperationFunction = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

const resources: Record<string, Record<string, { execute: OperationFunction } | unknown>> = {
	agent,
	agentFile,
	agentResponse,
	file,
	memory,
	memoryCollection,
	resourceTemplate,
	webhook,
};

function operationFor(ctx: IExecuteFunctions, resource: string, operation: string): OperationFunction {
	const candidate = resources[resource]?.[operation] as { execute?: OperationFunction } | undefined;
	if (typeof candidate?.execute !== 'function') {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	return candidate.execute;
}

/** Keeps n8n's own errors as they are (with the item they belong to) and wraps anything else. */
function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Runs the chosen operation item by item: each output item is paired with its input item, and
 * a failing item either stops the node (naming the item) or, with "Continue On Fail" or the
 * error output, becomes an item carrying the error.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = operationFor(this, resource, operation);
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const output = await execute.call(this, itemIndex);
			returnData.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (error) {
			if (this.continueOnFail()) {
				// n8n's error output takes an item that carries its error (`error`, n8n 1.x and 2.x), or whose
				// json holds nothing but error/message (1.x) or error/message/details (2.x).
				returnData.push({
					json: { error: error.message, ...(error.description ? { details: error.description } : {}) },
					error: asNodeError(this, error, itemIndex),
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw asNodeError(this, error, itemIndex);
		}
	}
	return [returnData];
}
