import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	isFinished,
	pollAgentResponse,
	simplifyAgentResponse,
	throwIfRunFailed,
} from '../../helpers/runs/agentResponses';
import { attachUploads } from '../../helpers/runs/attachments';
import { readExecuteStream } from '../../helpers/runs/chatStreams';
import { readExecuteRequest } from '../../helpers/runs/executeRequest';
import { minutesToMs } from '../../helpers/input/parameters';
import { executeProperties } from './execute.descriptions';
import { askForJson, jsonRunOutput } from './jsonRuns';
import { withGeneratedFiles } from '../../helpers/runs/generatedFiles';
import { readJsonRequest } from '../../helpers/output/structuredOutput';
import { startRun, startStreamedRun } from '../../helpers/runs/runStart';
import { forwardStream } from '../../helpers/runs/streaming';

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const chosen = this.getNodeParameter('responseMode', itemIndex, 'wait') as string;
	const jsonRequest = chosen === 'wait' ? readJsonRequest(this, itemIndex) : undefined;
	const request = await readExecuteRequest(this, itemIndex);
	// The platform streams only a chat agent's run: another agent's is waited for, and its answer
	// passed on to a streaming caller as one piece when the run ends (never a refused request).
	const oneStreamedPiece = chosen === 'stream' && request.agent.type !== 'chat';
	const mode = oneStreamedPiece ? 'wait' : chosen;
	if (jsonRequest) request.body = askForJson(request.body, jsonRequest);
	const timeoutMs = minutesToMs(this.getNodeParameter('options.timeout', itemIndex, 10), 10);
	await attachUploads(this, request, {
		process: this.getNodeParameter('options.processAttachments', itemIndex, true) as boolean,
		timeoutMs,
		itemIndex,
	});
	const startedAt = Date.now();

	if (mode === 'stream') {
		const idleTimeoutMs =
			(this.getNodeParameter('options.idleTimeout', itemIndex, 30) as number) * 1000;
		const stream = await startStreamedRun(this, {
			agentId: request.agentId,
			body: request.body,
			timeoutMs,
			itemIndex,
		});
		const result = await readExecuteStream(this, stream, {
			itemIndex,
			idleTimeoutMs,
			startedAt,
			timeoutMs,
		});
		throwIfRunFailed(this, result, itemIndex);
		return await withGeneratedFiles(this, outputOf(this, result, itemIndex), result, itemIndex);
	}

	// One request for a run that ends within the platform's hold; a run found after a hold that
	// ended without it is polled from there (helpers/runs/runStart.ts).
	const start = async (body: IDataObject, since: number): Promise<IDataObject> =>
		await startRun(this, {
			agentId: request.agentId,
			body,
			wait: mode === 'wait',
			timeLeftMs: timeoutMs - (Date.now() - since),
			itemIndex,
		});
	const finish = async (started: IDataObject, since: number): Promise<IDataObject> => {
		let response = started;
		if (!isFinished(response)) {
			response = await pollAgentResponse(this, String(response.id), itemIndex, {
				startedAt: since,
				timeoutMs,
			});
		}
		throwIfRunFailed(this, response, itemIndex);
		return response;
	};
	const started = await start(request.body, startedAt);
	if (mode === 'start') return outputOf(this, started, itemIndex);
	const response = await finish(started, startedAt);
	if (jsonRequest) {
		const output = await jsonRunOutput(this, {
			request: jsonRequest,
			body: request.body,
			first: response,
			run: async (body) => {
				const since = Date.now();
				return await finish(await start(body, since), since);
			},
			simplify: (run) => outputOf(this, run, itemIndex)[0].json,
			itemIndex,
		});
		return this.helpers.returnJsonArray(output);
	}
	if (oneStreamedPiece) {
		const caller = forwardStream(this, itemIndex);
		caller.send(String(response.output ?? ''));
		caller.end();
	}
	return await withGeneratedFiles(this, outputOf(this, response, itemIndex), response, itemIndex);
}
