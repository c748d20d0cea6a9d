/**
 * Input binaries of Agent → Execute, uploaded (streamed, the way their size calls for) and
 * attached to the run. As the most complete public client does, each is processed and waited for
 * before the run by default, so the agent reads it; an option turns that off (processing spends
 * credits).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { ExecuteRequest } from './executeRequest';
import { waitUntilProcessed } from './fileProcessing';
import { sendUpload } from './upload';

/** Uploads the checked input binaries and adds their IDs to the files to attach. */
export async function attachUploads(
	this: IExecuteFunctions,
	request: ExecuteRequest,
	settings: { process: boolean; timeoutMs: number; itemIndex: number },
): Promise<void> {
	if (!request.uploads.length) return;
	const ids = (request.body.file_ids as number[] | undefined) ?? [];
	const startedAt = Date.now();
	for (const upload of request.uploads) {
		let file = await sendUpload.call(this, upload, { process: settings.process });
		if (settings.process) {
			const left = Math.max(1, settings.timeoutMs - (Date.now() - startedAt));
			file = await waitUntilProcessed.call(this, file, settings.itemIndex, left);
		}
		ids.push(Number(file.id));
	}
	request.body.file_ids = ids;
}
