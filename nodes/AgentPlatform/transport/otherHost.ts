/**
 * A file fetched from a host other than the platform (a generated file on a CDN): n8n's plain
 * request helper, with no authentication, so the API key and workspace never go there. Files
 * on the platform's own host go through the one request function instead (request.ts).
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

export interface Download {
	body: unknown;
	headers: Record<string, unknown>;
}

export async function downloadFromOtherHost(
	ctx: IExecuteFunctions,
	url: string,
	timeoutMs: number,
): Promise<Download> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
	};
	const response = (await ctx.helpers.httpRequest(options)) as {
		statusCode: number;
		headers: Record<string, unknown>;
		body: unknown;
	};
	if (response.statusCode < 200 || response.statusCode >= 300) {
		discard(response.body);
		throw new Error(`the file's host answered HTTP ${response.statusCode}`);
	}
	return response;
}

/** Frees the connection of an answer whose body is not wanted. */
function discard(body: unknown): void {
	const stream = body as { destroy?: () => void; resume?: () => void } | undefined;
	if (typeof stream?.destroy === 'function') stream.destroy();
	else if (typeof stream?.resume === 'function') stream.resume();
}
