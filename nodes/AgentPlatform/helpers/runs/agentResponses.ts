import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import type { PollSettings } from './polling';
import { pollUntil } from './polling';

/** Statuses seen in the spec and public clients; `succeeded` on records, `completed` at a stream's end. */
export const SUCCEEDED_STATUSES = ['succeeded', 'completed'];
export const FAILED_STATUSES = ['failed', 'error', 'canceled', 'cancelled'];

export function isFinished(response: IDataObject): boolean {
	const status = String(response.status ?? '');
	return SUCCEEDED_STATUSES.includes(status) || FAILED_STATUSES.includes(status);
}

/** A run that ended badly becomes an error carrying the response id, so it can be looked up. */
export function throwIfRunFailed(
	ctx: IExecuteFunctions,
	response: IDataObject,
	itemIndex: number,
): void {
	const status = String(response.status ?? '');
	if (!FAILED_STATUSES.includes(status)) return;
	const reason = typeof response.error === 'string' && response.error ? `: ${response.error}` : '';
	throw new NodeApiError(ctx.getNode(), response as JsonObject, {
		message: `The agent run ${String(response.id)} ended with status "${status}"${reason}`,
		description: `Agent response ID ${String(response.id)}. The platform reported the run as ${status}; nothing was retried, so no credits were spent twice.`,
		itemIndex,
	});
}

/** Polls GET /agent-responses/{id} until the run finishes (see pollUntil). */
export async function pollAgentResponse(
	ctx: IExecuteFunctions,
	responseId: string,
	itemIndex: number,
	settings: PollSettings,
): Promise<IDataObject> {
	return await pollUntil(ctx, {
		...settings,
		fetch: async () =>
			(await apiRequest(ctx, {
				method: 'GET',
				path: `/agent-responses/${encodeURIComponent(responseId)}`,
				resource: `agent response ${responseId}`,
				itemIndex,
			})) as IDataObject,
		done: isFinished,
		timedOut: () =>
			new NodeOperationError(
				ctx.getNode(),
				`The agent run ${responseId} did not finish within ${Math.round(settings.timeoutMs / 1000)} seconds`,
				{
					itemIndex,
					description: `It may still be running on the platform. Raise the node's Timeout option, or fetch it later with Agent Response → Get and the ID ${responseId}.`,
				},
			),
	});
}

/**
 * The status a workflow can test whatever made the item: the run record's `succeeded` for the
 * stream's final `completed` (the same finished run), `canceled` for `cancelled`.
 */
export function commonStatus(status: IDataObject[string]): IDataObject[string] {
	if (status === 'completed') return 'succeeded';
	if (status === 'cancelled') return 'canceled';
	return status;
}

/**
 * The fields every item about one run carries, whether it came from Execute (any response mode),
 * Agent Response → Get or the trigger (README: "Fields a workflow can rely on"): the same names
 * and the same status words, taken from the record in hand, so no request is spent on them.
 * `platform_status` keeps the platform's own word.
 */
export function runFields(record: IDataObject): IDataObject {
	return {
		id: record.id,
		status: commonStatus(record.status),
		platform_status: record.status,
		output: record.output ?? '',
		credits: record.credits ?? null,
		root_id: record.root_id ?? record.id,
		agent_id: record.template_id ?? record.agent_id,
		template_id: record.template_id ?? record.agent_id,
		generated_files: Array.isArray(record.generated_files) ? record.generated_files : [],
	};
}

/**
 * The output item most workflows want: every field the platform sent except the echoed `input`,
 * and the run's common fields (runFields): `agent_id` beside `template_id`, `root_id` always
 * set, `generated_files` (what image and video agents produce) always present, empty when the
 * run made none. `error` is kept as sent.
 */
export function simplifyAgentResponse(response: IDataObject): IDataObject {
	const { input: _input, ...rest } = response;
	void _input;
	return { ...rest, ...runFields(response) };
}

/** The platform's words in an `{"error": …}` body or event: a string, or an object with a message. */
export function errorWordsOf(body: IDataObject): string {
	const error = body.error;
	if (typeof error === 'string') return error;
	if (error !== null && typeof error === 'object') {
		const message = (error as IDataObject).message;
		if (typeof message === 'string' && message) return message;
	}
	if (typeof body.message === 'string' && body.message) return body.message;
	return JSON.stringify(error);
}

/**
 * An `{"error": …}` answer that came with status 200, or an error event in a stream: a failure in
 * the platform's words, never a success.
 */
export function throwIfErrorBody(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	body: unknown,
	itemIndex: number,
): void {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
	const record = body as IDataObject;
	if (record.error === undefined || record.error === null || record.error === '') return;
	// a run record carries `error: null` while it goes well and the failed status when it does not
	if (record.status !== undefined || record.responses !== undefined || record.choices !== undefined)
		return;
	const words = errorWordsOf(record);
	throw new NodeApiError(ctx.getNode(), record as JsonObject, {
		message: `The platform answered with an error: ${words}`,
		description: `The platform's words: ${words}. Nothing was sent again, so the agent did not run twice.`,
		itemIndex,
	});
}
