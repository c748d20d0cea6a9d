/**
 * The one call that starts a run, POST /agents/{id}/execute. Wait for Completion sends it with the
 * platform's wait flag: the platform answers the call when the run ends, waiting up to 100 s, so a
 * run that ends within the platform's wait costs this one request. A wait that ends without the
 * finished run (a "running" answer, the gateway's 524 page, a cut connection) is followed by
 * finding the run (runRecovery.ts) and polling it, never by a second start
 * (docs/never-lose-a-run.md).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import { apiRequest, apiRequestFull } from '../../transport/request';
import type { ApiRequest, StreamDeadline } from '../../transport/types';
import { forgetAgentDefinition, showsStaleDefinition } from '../agents/definitions';
import { throwIfErrorBody } from './agentResponses';
import { mayHaveStarted, recoverStartedRun } from './runRecovery';

/** The platform's wait on a waiting call, and how much longer the node waits for its answer. */
export const PLATFORM_WAIT = { waitMs: 100_000, marginMs: 20_000 };

/** The start call: one place writes its method, path and what errors name it by. */
function executeCall(
	agentId: string,
	body: IDataObject,
	options: Pick<ApiRequest, 'itemIndex' | 'timeoutMs' | 'stream'>,
): ApiRequest {
	return {
		method: 'POST',
		path: `/agents/${agentId}/execute`,
		resource: `agent ${agentId}`,
		body,
		...options,
	};
}

/**
 * Starts a run whose answer streams (Response Mode: Stream) and returns the stream of Server-Sent
 * Events with its deadline; a stream that breaks is recovered by polling the run it announced
 * (chatStreams.ts).
 */
export async function startStreamedRun(
	ctx: IExecuteFunctions,
	run: { agentId: string; body: IDataObject; timeoutMs: number; itemIndex: number },
): Promise<{ stream: AsyncIterable<Uint8Array>; deadline?: StreamDeadline }> {
	const { body, streamDeadline } = await apiRequestFull(
		ctx,
		executeCall(
			run.agentId,
			{ ...run.body, stream: true },
			{
				itemIndex: run.itemIndex,
				timeoutMs: run.timeoutMs,
				stream: true,
			},
		),
	);
	return { stream: body as AsyncIterable<Uint8Array>, deadline: streamDeadline };
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

/**
 * Starts a run and returns its record as the answer showed it: finished when a waiting call was
 * answered within the platform's wait, `starting` or `running` otherwise.
 */
export async function startRun(
	ctx: IExecuteFunctions,
	run: {
		agentId: string;
		body: IDataObject;
		/** Send the wait flag (Wait for Completion); Start Only answers at once. */
		wait: boolean;
		/** What is left of the node's Timeout: the node waits no longer for the call. */
		timeLeftMs: number;
		itemIndex: number;
	},
): Promise<IDataObject> {
	const { agentId, body, itemIndex } = run;
	const since = Date.now();
	let answer: IDataObject;
	try {
		answer = (await apiRequest(
			ctx,
			// Both spellings of the flag: older and newer revisions of the API read one each.
			executeCall(
				agentId,
				{ ...body, wait_execution: run.wait, waitExecution: run.wait },
				{
					itemIndex,
					...(run.wait
						? {
								timeoutMs: Math.max(
									1000,
									Math.min(run.timeLeftMs, PLATFORM_WAIT.waitMs + PLATFORM_WAIT.marginMs),
								),
							}
						: {}),
				},
			),
		)) as IDataObject;
	} catch (error) {
		if (mayHaveStarted(error)) {
			return await recoverStartedRun(ctx, error, {
				agentId,
				body,
				startedAt: since,
				itemIndex,
			});
		}
		// The agent's form changed or the agent is gone: the next item reads its definition anew.
		if (showsStaleDefinition(error)) await forgetAgentDefinition(ctx, agentId);
		throw asNodeError(ctx.getNode(), error, itemIndex);
	}
	return firstResponse(ctx, answer, itemIndex);
}
