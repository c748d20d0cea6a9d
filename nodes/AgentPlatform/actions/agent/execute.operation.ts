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
import { minutesToMs } from '../../helpers/parameters';
import { asNodeError } from '../../transport/errors';
import { apiRequest, apiRequestFull } from '../../transport/request';
import { executeProperties } from './execute.descriptions';
import { askForJson, jsonRunOutput } from './jsonRuns';
import { withGeneratedFiles } from '../../helpers/generatedFiles';
import { readJsonRequest } from '../../helpers/structuredOutput';
import { mayHaveStarted, recoverStartedRun } from '../../helpers/runRecovery';

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

function firstResponse(
	ctx: IExecuteFunctions,
	answer: IDataObject,
	itemIndex: number,
): IDataObject {
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
	const timeoutMs = minutesToMs(this.getNodeParameter('options.timeout', itemIndex, 10), 10);
	await attachUploads.call(this, request, {
		process: this.getNodeParameter('options.processAttachments', itemIndex, true) as boolean,
		timeoutMs,
		itemIndex,
	});
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
		return await withGeneratedFiles.call(
			this,
			outputOf(this, result, itemIndex),
			result,
			itemIndex,
		);
	}

	// Wait for Completion starts the run without waiting too, then polls its record: a waiting
	// call is held up to 100 s, the production gateway's own timeout, whose 524 page would lose
	// the run's id while it goes on (docs/never-lose-a-run.md).
	// A start call that may have reached the platform unanswered is never sent again: the run it
	// started is looked up instead (helpers/runRecovery.ts).
	const start = async (body: IDataObject): Promise<IDataObject> => {
		const since = Date.now();
		let answer: IDataObject;
		try {
			answer = (await apiRequest.call(this, {
				...call,
				body: { ...body, wait_execution: false, waitExecution: false },
			})) as IDataObject;
		} catch (error) {
			if (!mayHaveStarted(error)) throw asNodeError(this.getNode(), error, itemIndex);
			const lookup = { agentId: request.agentId, body, startedAt: since, itemIndex };
			return await recoverStartedRun.call(this, error, lookup);
		}
		return firstResponse(this, answer, itemIndex);
	};
	const finish = async (started: IDataObject, since: number): Promise<IDataObject> => {
		let response = started;
		if (!isFinished(response)) {
			response = await pollAgentResponse.call(this, String(response.id), itemIndex, {
				startedAt: since,
				timeoutMs,
			});
		}
		throwIfRunFailed(this, response, itemIndex);
		return response;
	};
	const started = await start(request.body);
	if (mode === 'start') return outputOf(this, started, itemIndex);
	const response = await finish(started, startedAt);
	if (jsonRequest) {
		const output = await jsonRunOutput.call(this, {
			request: jsonRequest,
			body: request.body,
			first: response,
			run: async (body) => await finish(await start(body), Date.now()),
			simplify: (run) => outputOf(this, run, itemIndex)[0].json,
			itemIndex,
		});
		return this.helpers.returnJsonArray(output);
	}
	return await withGeneratedFiles.call(
		this,
		outputOf(this, response, itemIndex),
		response,
		itemIndex,
	);
}
