/** Waiting for the platform to process an uploaded file (File → Upload, File → Process, Execute's attachments). */
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { pollUntil } from '../runs/polling';
import { inItem } from '../input/parameters';

/** File statuses that mean the platform gave up processing (only `waiting` and `completed` are in the spec). */
const PROCESSING_FAILED = ['failed', 'error'];

/**
 * Polls GET /files/{id} until the file's status is `completed`, with the backoff of runs (see
 * pollUntil) counted from `since`, when processing was asked for (the upload's answer).
 */
export async function waitUntilProcessed(
	ctx: IExecuteFunctions,
	file: IDataObject,
	itemIndex: number,
	timeoutMs: number,
	since = Date.now(),
): Promise<IDataObject> {
	const fileId = String(file.id);
	return await pollUntil(ctx, {
		current: file,
		startedAt: since,
		timeoutMs,
		fetch: async () =>
			(await apiRequest(ctx, {
				method: 'GET',
				path: `/files/${encodeURIComponent(fileId)}`,
				resource: `file ${fileId}`,
				itemIndex,
			})) as IDataObject,
		done: (current) => {
			const status = String(current.status ?? '');
			if (PROCESSING_FAILED.includes(status)) {
				throw new NodeApiError(ctx.getNode(), current as JsonObject, {
					message: `The platform could not process file ${fileId} (status "${status}")`,
					description:
						'The file is stored but not processed. Try File → Process again, or upload it anew.',
					itemIndex,
				});
			}
			return status === 'completed';
		},
		timedOut: () =>
			new NodeOperationError(
				ctx.getNode(),
				inItem(
					`The file ${fileId} was not processed within ${Math.round(timeoutMs / 1000)} seconds`,
					itemIndex,
				),
				{
					itemIndex,
					description: `It is uploaded and may still be processing. Raise the Timeout option, or check it later with File → Get and the ID ${fileId}.`,
				},
			),
	});
}
