import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	isFinished,
	pollAgentResponse,
	simplifyAgentResponse,
	throwIfRunFailed,
} from '../../helpers/runs/agentResponses';
import { attachUploads, withAttachedFiles } from '../../helpers/runs/attachments';
import { readExecuteStream } from '../../helpers/runs/chatStreams';
import { readExecuteRequest } from '../../helpers/runs/executeRequest';
import { minutesToMs } from '../../helpers/input/parameters';
import { executeProperties } from './execute.descriptions';
import { askForJson, jsonRunOutput } from './jsonRuns';
import type { ExecuteSession } from '../../helpers/chatMemory/executeSession';
import { executeSession } from '../../helpers/chatMemory/executeSession';
import type { ExecuteRequest } from '../../helpers/runs/executeRequest';
import { withGeneratedFiles } from '../../helpers/runs/generatedFiles';
import type { JsonRequest } from '../../helpers/output/structuredOutput';
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

interface ExecuteRun {
	itemIndex: number;
	request: ExecuteRequest;
	mode: string;
	jsonRequest: JsonRequest | undefined;
	session: ExecuteSession | undefined;
	oneStreamedPiece: boolean;
	timeoutMs: number;
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
	const shape = (body: IDataObject) => (jsonRequest ? askForJson(body, jsonRequest) : body);
	// With a Memory: the chat session's turn (helpers/chatMemory/executeSession.ts), which the
	// session's next turn in this process waits for until it is written or given up
	const timeoutMs = minutesToMs(this.getNodeParameter('options.timeout', itemIndex, 10), 10);
	const session = await executeSession(this, request, itemIndex, { mode, timeoutMs, shape });
	if (!session) request.body = shape(request.body);
	try {
		const output = await run.call(this, {
			itemIndex,
			request,
			mode,
			jsonRequest,
			session,
			oneStreamedPiece,
			timeoutMs,
		});
		return withAttachedFiles(output, request);
	} finally {
		session?.close();
	}
}

async function run(
	this: IExecuteFunctions,
	{ itemIndex, request, mode, jsonRequest, session, oneStreamedPiece, timeoutMs }: ExecuteRun,
): Promise<INodeExecutionData[]> {
	const firstStart = async <T>(send: (body: IDataObject) => Promise<T>): Promise<T> =>
		session ? await session.start(send) : await send(request.body);
	const remembered = async (items: INodeExecutionData[]): Promise<INodeExecutionData[]> => {
		if (session && items[0]) items[0].json = await session.save(items[0].json);
		return items;
	};
	await attachUploads(this, request, {
		process: this.getNodeParameter('options.processAttachments', itemIndex, true) as boolean,
		timeoutMs,
		itemIndex,
	});
	const startedAt = Date.now();

	if (mode === 'stream') {
		const idleTimeoutMs =
			(this.getNodeParameter('options.idleTimeout', itemIndex, 30) as number) * 1000;
		const { stream, deadline } = await firstStart(
			async (body) =>
				await startStreamedRun(this, { agentId: request.agentId, body, timeoutMs, itemIndex }),
		);
		const result = await readExecuteStream(this, stream, {
			itemIndex,
			idleTimeoutMs,
			deadline,
			startedAt,
			timeoutMs,
		});
		throwIfRunFailed(this, result, itemIndex);
		return await remembered(
			await withGeneratedFiles(this, outputOf(this, result, itemIndex), result, itemIndex),
		);
	}

	// One request for a run that ends within the platform's wait; a run found after a wait that
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
	const started = await firstStart(async (body) => await start(body, startedAt));
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
		return await remembered(this.helpers.returnJsonArray(output));
	}
	if (oneStreamedPiece) {
		const caller = forwardStream(this, itemIndex);
		caller.send(String(response.output ?? ''));
		caller.end();
	}
	return await remembered(
		await withGeneratedFiles(this, outputOf(this, response, itemIndex), response, itemIndex),
	);
}
