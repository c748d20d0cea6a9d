/** Input binaries of Agent → Execute, uploaded (streamed) and attached to the run. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { sendUpload } from './binary';
import type { ExecuteRequest } from './executeRequest';

/** Uploads the checked input binaries and adds their IDs to the files to attach. */
export async function attachUploads(this: IExecuteFunctions, request: ExecuteRequest): Promise<void> {
	if (!request.uploads.length) return;
	const ids = (request.body.file_ids as number[] | undefined) ?? [];
	for (const upload of request.uploads) {
		const file = await sendUpload.call(this, upload);
		ids.push(Number(file.id));
	}
	request.body.file_ids = ids;
}
