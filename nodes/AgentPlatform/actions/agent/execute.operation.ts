import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	isFinished,
	pollAgentResponse,
	simplifyAgentResponse,
	throwIfErrorBody,
	throwIfRunFailed,
} from '../../helpers/agentResponses';
import { attachUploads } from '../../helpers/attachments';
import { readExecuteStream } from '../../helpers/chatStreams';
import { readExecuteRequest } from '../../helpers/executeRequest';
import { apiRequest, apiRequestFull } from '../../transport/request';
import { executeProperties } from './execute.descriptions';
import { askForJson, jsonRunOutput } from './jsonRuns';
import { withGeneratedFiles } from '../../helpers/generatedFiles';
import { readJsonRequest } from '../../helpers/structuredOutput';

/** The platform's own limit on a waiting execute call. */
const PLATFORM_WAIT_MS = 100_000;

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['execute'] } },
	executeProperties,
);

function outputOf(
	ctx: IExecuteFunctions,
	response: IDataObject,
	itemIndex: number,
): INodeExecutionData[] {
	const full = ctx.getNodeParameter('options.fullResponse', itemIndex, false) as boolean;
	return ctx.helpers.returnJsonArray(full ? response : simplifyAgentResponse(response));
}

function firstResponse(ctx: IExecuteFunctions, answer: IDataObject, itemIndex: number): IDataObject {
	throwIfErrorBody(ctx, answer, itemIndex);
	const responses = answer.responses;
	if (!Array.isArray(responses) || !responses.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The platform accepted the run but returned no response record',
			{ itemIndex },
		);
	}
	return responses[0] as IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const mode = this.getNodeParameter('responseMode', itemIndex, 'wait') as string;
	const jsonRequest = mode === 'wait' ? readJsonRequest(this, itemIndex) : undefined;
	const request = await readExecuteRequest.call(this, itemIndex);
	if (jsonRequest) askForJson(request.body, jsonRequest);
	await attachUploads.call(this, request);
	const timeoutMs = Math.round(
		(this.getNodeParameter('options.timeout', itemIndex, 10) as number) * 60_000,
	);
	const startedAt = Date.now();
	const call = {
		method: 'POST' as const,
		path: `/agents/${request.agentId}/execute`,
		resource: `agent ${request.agentId}`,
		itemIndex,
	};

	if (mode === 'stream') {
		const idleTimeoutMs =
			(this.getNodeParameter('options.idleTimeout', itemIndex, 30) as number) * 1000;
		const { body: stream } = await apiRequestFull.call(this, {
			...call,
			body: { ...request.body, stream: true },
			stream: true,
			timeoutMs,
		});
		const result = await readExecuteStream.call(this, stream as AsyncIterable<Uint8Array>, {
			itemIndex,
			idleTimeoutMs,
			startedAt,
			timeoutMs,
		});
		throwIfRunFailed(this, result, itemIndex);
		return await withGeneratedFiles.call(this, outputOf(this, result, itemIndex), result, itemIndex);
	}

	if (mode === 'start') {
		const answer = (await apiRequest.call(this, {
			...call,
			body: { ...request.body, wait_execution: false, waitExecution: false },
		})) as IDataObject;
		return outputOf(this, firstResponse(this, answer, itemIndex), itemIndex);
	}

	const runWaiting = async (body: IDataObject): Promise<IDataObject> => {
		const runStartedAt = Date.now();
		const answer = (await apiRequest.call(this, {
			...call,
			body: { ...body, wait_execution: true, waitExecution: true },
			// the platform holds the call for up to 100 s; a little more lets its answer arrive
			timeoutMs: Math.min(timeoutMs, PLATFORM_WAIT_MS) + 20_000,
		})) as IDataObject;
		let response = firstResponse(this, answer, itemIndex);
		if (!isFinished(response)) {
			response = await pollAgentResponse.call(this, String(response.id), itemIndex, {
				startedAt: runStartedAt,
				timeoutMs,
			});
		}
		throwIfRunFailed(this, response, itemIndex);
		return response;
	};
	const response = await runWaiting(request.body);
	if (jsonRequest) {
		const simplify = (run: IDataObject) => outputOf(this, run, itemIndex)[0].json;
		const output = await jsonRunOutput.call(this, {
			request: jsonRequest,
			body: request.body,
			first: response,
			run: runWaiting,
			simplify,
			itemIndex,
		});
		return this.helpers.returnJsonArray(output);
	}
	return await withGeneratedFiles.call(this, outputOf(this, response, itemIndex), response, itemIndex);
}
