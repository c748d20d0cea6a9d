/**
 * The one request that does not go to the platform: the PUT of a file's bytes to the signed URL
 * that POST /v2/files/sign handed out (a storage host). It goes through n8n's unauthenticated
 * request helper on purpose: the signature in the URL is the authorization, and the API key and
 * workspace must never reach another host. Only the headers the sign step asked for are sent.
 * The body streams from n8n's binary store (a File-like StreamedFile: axios reads it part by part
 * and sets its exact Content-Length), and redirects are not followed, which would buffer it.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { StreamedFile } from './multipart';
import { backoffMs } from './retryPolicy';
import { cancelSignal, executionCanceled, waitFor } from './cancellation';

export interface StoragePut {
	url: string;
	/** Exactly the headers the sign step asked for. */
	headers: IDataObject;
	file: StreamedFile;
	timeoutMs: number;
	itemIndex: number;
}

/** A PUT is idempotent: a broken connection or a 5xx is tried again, from the first byte. */
const PUT_ATTEMPTS = 3;

export async function putToStorage(ctx: IExecuteFunctions, put: StoragePut): Promise<void> {
	const node = ctx.getNode();
	const host = new URL(put.url).host;
	const options: IHttpRequestOptions = {
		method: 'PUT',
		url: put.url,
		headers: put.headers,
		body: put.file as unknown as IDataObject,
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: put.timeoutMs,
		disableFollowRedirect: true,
	};
	for (let attempt = 1; ; attempt++) {
		let response: { statusCode: number; body: unknown };
		try {
			response = (await ctx.helpers.httpRequest(options)) as typeof response;
		} catch (error) {
			put.file.release();
			if (cancelSignal(ctx)?.aborted) throw executionCanceled(node);
			if (attempt < PUT_ATTEMPTS) {
				await waitFor(ctx, backoffMs(attempt));
				continue;
			}
			throw new NodeOperationError(
				node,
				`The upload of "${put.file.name}" to the storage host ${host} failed`,
				{
					itemIndex: put.itemIndex,
					description: `${(error as Error).message}. The platform handed out the upload address; nothing was registered as a file, so no credits were spent. Run the node again.`,
				},
			);
		}
		if (response.statusCode >= 200 && response.statusCode < 300) return;
		if (response.statusCode >= 500 && attempt < PUT_ATTEMPTS) {
			await waitFor(ctx, backoffMs(attempt));
			continue;
		}
		const body = response.body;
		// a parsed JSON object, or text (a string or bytes, which String() decodes)
		const plainObject = typeof body === 'object' && body !== null && !(Symbol.iterator in body);
		const said = (plainObject ? JSON.stringify(body) : String(body ?? '')).slice(0, 500);
		throw new NodeApiError(node, { status: response.statusCode, body: said } as JsonObject, {
			message: `The storage host refused the upload of "${put.file.name}" (HTTP ${response.statusCode})`,
			description: `It said: ${said || 'nothing'}. The signed upload address may have expired, or the request differed from what the platform signed. Nothing was registered as a file; run the node again.`,
			httpCode: String(response.statusCode),
			itemIndex: put.itemIndex,
		});
	}
}
