import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../transport/request';
import type { PollSettings } from './polling';
import { pollUntil } from './polling';

// Polling moved to its own file; these names stay importable from here.
export type { PollSettings } from './polling';
export { POLLING, pollUntil } from './polling';

/** Statuses seen in the spec and public clients; `succeeded` on records, `completed` at a stream's end. */
export const SUCCEEDED_STATUSES = ['succeeded', 'completed'];
export const FAILED_STATUSES = ['failed', 'error', 'canceled', 'cancelled'];

export function isFinished(response: IDataObject): boolean {
	const status = String(response.status ?? '');
	return SUCCEEDED_STATUSES.includes(status) || FAILED_STATUSES.includes(status);
}

/** A run that ended badly becomes an error carrying the response id, so it can be looked up. */
export function throwIfRunFailed(ctx: IExecuteFunctions, response: IDataObject, itemIndex: number): void {
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
	this: IExecuteFunctions,
	responseId: string,
	itemIndex: number,
	settings: PollSettings,
): Promise<IDataObject> {
	return await pollUntil.call(this, {
		...settings,
		fetch: async () =>
			(await apiRequest.call(this, {
				method: 'GET',
				path: `/agent-responses/${encodeURIComponent(responseId)}`,
				resource: `agent response ${responseId}`,
				itemIndex,
			})) as IDataObject,
		done: isFinished,
		timedOut: () =>
			new NodeOperationError(
				this.getNode(),
				`The agent run ${responseId} did not finish within ${Math.round(settings.timeoutMs / 1000)} seconds`,
				{
					itemIndex,
					description: `It may still be running on the platform. Raise the node's Timeout option, or fetch it later with Agent Response → Get and the ID ${responseId}.`,
				},
			),
	});
}

/** The output item most workflows want; the platform's whole record is one option away. */
export function simplifyAgentResponse(response: IDataObject): IDataObject {
	return {
		id: response.id,
		status: response.status,
		output: response.output ?? '',
		credits: response.credits ?? null,
		root_id: response.root_id ?? response.id,
		agent_id: response.template_id,
		...(response.error ? { error: response.error } : {}),
	};
}
