/**
 * Input binaries of Agent → Execute, uploaded (streamed, the way their size calls for) and
 * attached to the run. As the most complete public client does, each is processed and waited for
 * before the run by default, so the agent reads it; an option turns that off (processing spends
 * credits). All are uploaded before any is waited for: the platform processes them together, and
 * each wait counts from its own upload, so the files after the first are usually done at their
 * first poll.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ExecuteRequest } from './executeRequest';
import { waitUntilProcessed } from '../files/fileProcessing';
import { sendUpload } from '../files/upload';
import { runBody, runExtras, runFields } from './runBody';

/** Uploads the checked input binaries and adds their IDs to the files to attach. */
export async function attachUploads(
	ctx: IExecuteFunctions,
	request: ExecuteRequest,
	settings: { process: boolean; timeoutMs: number; itemIndex: number },
): Promise<void> {
	if (!request.uploads.length) return;
	const ids = [...(runExtras(request.body).fileIds ?? [])];
	const startedAt = Date.now();
	const uploaded: Array<{ file: IDataObject; at: number }> = [];
	for (const upload of request.uploads) {
		const file = await sendUpload(ctx, upload, { process: settings.process });
		uploaded.push({ file, at: Date.now() });
	}
	for (const [index, { file, at }] of uploaded.entries()) {
		let ready = file;
		if (settings.process) {
			// The wait counts from the upload; the deadline stays the item's.
			const left = Math.max(1, settings.timeoutMs - (at - startedAt));
			ready = await waitUntilProcessed(ctx, file, settings.itemIndex, left, at);
		}
		ids.push(Number(ready.id));
		request.files.push({ id: Number(ready.id), name: request.uploads[index].fileName });
	}
	request.body = runBody(runFields(request.body), { ...runExtras(request.body), fileIds: ids });
}

/**
 * The files that went with the run, named in Execute's output (`files`: id and name), so that a
 * chat's answer or a later node can say which files the agent had; an output without files is
 * left as it was.
 */
export function withAttachedFiles(
	items: INodeExecutionData[],
	request: ExecuteRequest,
): INodeExecutionData[] {
	if (!request.files.length) return items;
	for (const item of items) item.json.files = request.files.map((file) => ({ ...file }));
	return items;
}
