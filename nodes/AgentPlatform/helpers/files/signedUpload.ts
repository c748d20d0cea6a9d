/**
 * The signed-URL flow for large files, as the most complete public client uses it
 * (docs/platform-assumptions.md): POST /v2/files/sign → a PUT of the raw bytes to the signed URL
 * (transport/storage.ts: no Authorization, no workspace header, only the headers the sign step
 * asked for) → POST /v2/files/register → the File record. Both spellings of each field of the
 * sign step's answer are accepted, as that client does.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { StreamedFile } from '../../transport/multipart';
import { apiRequest } from '../../transport/request';
import { putToStorage } from '../../transport/storage';
import type { PreparedUpload, UploadOptions } from './binary';
import { uploadTimeoutMs } from './binary';
import { inItem } from '../input/parameters';

/** Answers to the sign step that mean the platform has no signed-URL flow: POST /files then. */
const NO_SIGNED_UPLOADS = ['404', '405'];

function either(answer: IDataObject, snake: string, camel: string): unknown {
	return answer[snake] ?? answer[camel];
}

/**
 * Uploads through the signed-URL flow; resolves the registered File record, or undefined when the
 * platform answers 404 or 405 to the sign step (then nothing was sent and POST /files is used).
 */
export async function uploadSigned(
	ctx: IExecuteFunctions,
	file: PreparedUpload,
	options: Pick<UploadOptions, 'process'>,
): Promise<IDataObject | undefined> {
	const { itemIndex } = file;
	let answer: IDataObject = {};
	let refused: unknown;
	try {
		answer = (await apiRequest(ctx, {
			method: 'POST',
			path: '/v2/files/sign',
			body: { filename: file.fileName, content_type: file.mimeType, size: file.size },
			resource: 'the signed-upload endpoint',
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		refused = error;
	}
	if (refused instanceof NodeApiError && NO_SIGNED_UPLOADS.includes(String(refused.httpCode))) {
		return undefined;
	}
	if (refused !== undefined) throw refused;
	const uploadUrl = either(answer, 'upload_url', 'uploadUrl');
	const objectPath = either(answer, 'object_path', 'objectPath');
	if (
		typeof uploadUrl !== 'string' ||
		!/^https?:\/\//i.test(uploadUrl) ||
		typeof objectPath !== 'string'
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(
				`The platform's answer to the upload of "${file.fileName}" has no upload address`,
				itemIndex,
			),
			{ itemIndex, description: `It answered: ${JSON.stringify(answer).slice(0, 500)}` },
		);
	}
	const asked = either(answer, 'required_headers', 'requiredHeaders');
	const headers: IDataObject =
		asked !== null && typeof asked === 'object' && !Array.isArray(asked)
			? { ...(asked as IDataObject) }
			: { 'Content-Type': file.mimeType };
	const body = new StreamedFile({
		name: file.fileName,
		type: String(headers['Content-Type'] ?? headers['content-type'] ?? file.mimeType),
		size: file.size,
		open: file.open,
	});
	try {
		await putToStorage(ctx, {
			url: uploadUrl,
			headers,
			file: body,
			timeoutMs: uploadTimeoutMs(file.size),
			itemIndex,
		});
	} finally {
		body.release();
	}
	return (await apiRequest(ctx, {
		method: 'POST',
		path: '/v2/files/register',
		body: {
			object_path: objectPath,
			filename: file.fileName,
			content_type: file.mimeType,
			process: options.process === true,
		},
		resource: 'the signed-upload endpoint',
		itemIndex,
	})) as IDataObject;
}
