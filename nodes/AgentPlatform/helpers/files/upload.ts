/**
 * Sending a checked file (binary.ts) to the platform, streamed both ways, as production takes it
 * (docs/platform-assumptions.md): up to 32 MiB in one multipart POST /files; above, the signed-URL
 * flow (signedUpload.ts), falling back to POST /files when the platform has no such flow.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MultipartForm, StreamedFile } from '../../transport/multipart';
import { apiRequest } from '../../transport/request';
import type { PreparedUpload, UploadOptions } from './binary';
import { prepareUpload, uploadTimeoutMs } from './binary';
import { uploadSigned } from './signedUpload';

/** Larger files go through the signed-URL flow, as the most complete public client does. */
export const DIRECT_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;

/** Streams a prepared file to POST /files; resolves the platform's File record. */
async function postFile(
	ctx: IExecuteFunctions,
	file: PreparedUpload,
	options: Pick<UploadOptions, 'process'>,
): Promise<IDataObject> {
	const form = new MultipartForm();
	if (options.process) form.append('process', '1');
	form.append(
		'file',
		new StreamedFile({
			name: file.fileName,
			type: file.mimeType,
			size: file.size,
			open: file.open,
		}),
	);
	try {
		return (await apiRequest(ctx, {
			method: 'POST',
			path: '/files',
			body: form,
			bodySentWhole: () => form.sentWhole(),
			resource: 'the files endpoint (check the Base URL)',
			itemIndex: file.itemIndex,
			timeoutMs: uploadTimeoutMs(file.size),
		})) as IDataObject;
	} finally {
		form.release();
	}
}

/** Sends a prepared file the way its size calls for; resolves the platform's File record. */
export async function sendUpload(
	ctx: IExecuteFunctions,
	file: PreparedUpload,
	options: Pick<UploadOptions, 'process'> = {},
): Promise<IDataObject> {
	if (file.size > DIRECT_UPLOAD_MAX_BYTES) {
		const registered = await uploadSigned(ctx, file, options);
		if (registered) return registered;
	}
	return await postFile(ctx, file, options);
}

/**
 * Uploads the input item's binary `binaryPropertyName` as one platform file, streamed; checks
 * the file locally first. Resolves the platform's File record.
 */
export async function uploadBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
	options: UploadOptions = {},
): Promise<IDataObject> {
	const prepared = await prepareUpload(ctx, itemIndex, binaryPropertyName, options);
	return await sendUpload(ctx, prepared, { process: options.process });
}
