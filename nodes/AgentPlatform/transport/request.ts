import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { platformHttpError, platformInvalidJsonError, platformNetworkError } from './errors';
import { rateGateOf } from './rateLimit';

export const CREDENTIAL_TYPE = 'agentPlatformApi';

export type PlatformContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IPollFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's Base URL, e.g. `/agents/12`. */
	path: string;
	qs?: IDataObject;
	/** JSON object, or a spec-compliant FormData-like object for multipart uploads. */
	body?: IDataObject | object;
	/** What the path names, in words, for plain-words 404s: e.g. `agent 12`. */
	resource?: string;
	/** Read the body as a stream of chunks (Server-Sent Events). */
	stream?: boolean;
	timeoutMs?: number;
	itemIndex?: number;
	/** Headers besides the credential's. */
	headers?: IDataObject;
	/**
	 * For streamed bodies: false when the body was not handed over whole, so a broken connection
	 * cannot have delivered a request the platform could act on (then even a POST may be retried).
	 */
	bodySentWhole?: () => boolean;
}

export interface ApiResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
}

/**
 * How long one request may wait for the platform's answer when the operation sets no timeout of
 * its own (operations that wait on purpose, such as Execute, pass theirs). Mutable, like RETRY,
 * so that tests can shorten it.
 */
export const REQUEST_TIMEOUT = { defaultMs: 60_000 };

/** Retries as decision 4 says; the numbers keep a whole node run within a few minutes at worst. */
export const RETRY = {
	maxAttempts: 6,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/** A retry_after above this is not waited for: the error says so instead. */
	maxRetryAfterMs: 5 * 60_000,
	/** 429 answers a request may get before the error (they do not count among maxAttempts). */
	maxRateLimited: 10,
	/** A read that got no answer within its timeout is asked this many times in all, not six: 2 minutes, not 6. */
	maxTimeoutAttempts: 2,
};

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Errors raised before a byte of the request left: safe to retry even for credit-spending POSTs. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const NETWORK_CODES = new Set([...NOT_SENT_CODES, 'ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ERR_BAD_RESPONSE']);

export function cancelSignal(ctx: PlatformContext): AbortSignal | undefined {
	const withSignal = ctx as Partial<IExecuteFunctions>;
	return typeof withSignal.getExecutionCancelSignal === 'function' ? withSignal.getExecutionCancelSignal() : undefined;
}

export function throwIfCancelled(ctx: PlatformContext): void {
	if (cancelSignal(ctx)?.aborted) {
		throw new NodeOperationError(ctx.getNode(), 'The execution was canceled');
	}
}

/** Waits with n8n-workflow's sleep in short slices, so a cancelled execution stops waiting at once. */
export async function waitFor(ctx: PlatformContext, ms: number): Promise<void> {
	const until = Date.now() + ms;
	for (;;) {
		throwIfCancelled(ctx);
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(left, 250));
	}
}

// The credential cannot change during a node run: read it once per run, not once per request.
// In n8n each read is a database lookup and a decryption, which httpRequestWithAuthentication
// would otherwise repeat for every request (about 1 ms each, measured); it takes the decrypted
// credential as an option instead.
interface RunCredentials {
	baseUrl: string;
	decrypted: ICredentialsDecrypted;
}

const runCredentials = new WeakMap<object, Promise<RunCredentials>>();

function credentialsOf(ctx: PlatformContext): Promise<RunCredentials> {
	let credentials = runCredentials.get(ctx);
	if (!credentials) {
		credentials = readCredentials(ctx);
		runCredentials.set(ctx, credentials);
		credentials.catch(() => runCredentials.delete(ctx));
	}
	return credentials;
}

async function readCredentials(ctx: PlatformContext): Promise<RunCredentials> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const url = String(data.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/]+/i.test(url)) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Base URL in the "Agent Platform API" credential must start with http:// or https://',
		);
	}
	const selected = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: url,
		decrypted: { id: selected?.id ?? '', name: selected?.name ?? '', type: CREDENTIAL_TYPE, data },
	};
}

/** Seconds the platform asked us to wait: the body's `retry_after` or the `Retry-After` header. */
export function retryAfterMs(body: unknown, headers: Record<string, unknown>): number | undefined {
	const fromBody =
		body && typeof body === 'object' ? Number((body as IDataObject).retry_after) : Number.NaN;
	if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody * 1000;
	const header = headers['retry-after'] ?? headers['Retry-After'];
	if (header === undefined) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(header));
	return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

export function backoffMs(attempt: number): number {
	const exponential = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return exponential / 2 + Math.random() * (exponential / 2);
}

/** The first error code along an error's causes (n8n's helpers wrap the socket's error). */
export function errorCode(error: unknown): string | undefined {
	let current = error as { code?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; current && depth < 4; depth++) {
		if (typeof current.code === 'string' && current.code) return current.code;
		current = current.cause as typeof current;
	}
	return undefined;
}

function errorDetail(error: unknown): string {
	let current = error as { message?: unknown; cause?: unknown } | undefined;
	let detail = '';
	for (let depth = 0; current && depth < 4; depth++) {
		if (typeof current.message === 'string' && current.message) detail = current.message;
		current = current.cause as typeof current;
	}
	return detail || 'no answer';
}

function isCancellation(ctx: PlatformContext, error: unknown): boolean {
	const code = errorCode(error);
	return code === 'ERR_CANCELED' || cancelSignal(ctx)?.aborted === true;
}

/**
 * A JSON answer that did not parse (n8n's client then gives its text), or a web page where JSON
 * was expected. An empty body, and plain text the platform may send on a delete, are fine.
 */
function unparsedJson(body: unknown, headers: Record<string, unknown> | undefined): boolean {
	if (typeof body !== 'string') return false;
	const text = body.trim();
	const type = String(headers?.['content-type'] ?? '').toLowerCase();
	return text !== '' && (type.includes('json') || type.includes('html') || /^[[{<]/.test(text));
}

/** Reads the start of a streamed error body, so a failed stream still yields the platform's words. */
async function readStreamedBody(body: unknown): Promise<unknown> {
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return body;
	const decoder = new TextDecoder();
	let text = '';
	for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
		text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
		if (text.length > 65_536) break;
	}
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * The one request function: every call to the platform goes through here, over n8n's
 * httpRequestWithAuthentication. It retries what may be retried and maps every failure.
 */
export async function apiRequestFull<T = unknown>(
	this: PlatformContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	const credentials = await credentialsOf(this);
	const root = credentials.baseUrl;
	const node = this.getNode();
	const method = request.method;
	const timeoutMs = request.timeoutMs ?? REQUEST_TIMEOUT.defaultMs;
	// Every POST of this API creates something or spends credits: it is retried only when it
	// cannot have reached the platform (429, or a connection that failed before sending).
	const idempotent = method !== 'POST';
	const options: IHttpRequestOptions = {
		method,
		url: `${root}${request.path}`,
		qs: request.qs,
		headers: { Accept: request.stream ? 'text/event-stream' : 'application/json', ...(request.headers ?? {}) },
		json: !request.stream,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// follow-redirects would keep a copy of every uploaded byte to replay it
		disableFollowRedirect: true,
		...(request.stream ? { encoding: 'stream' as const } : {}),
	};
	if (request.body !== undefined) options.body = request.body as IDataObject;
	const where = { method, path: request.path, resource: request.resource, itemIndex: request.itemIndex };
	// One gate per node run: items and pages back off together when the platform answers 429.
	const gate = rateGateOf(this, async (ms) => await waitFor(this, ms));
	let rateLimited = 0;

	for (let attempt = 1; ; attempt++) {
		throwIfCancelled(this);
		const ticket = await gate.acquire(attempt > 1 || rateLimited > 0);
		let response: ApiResponse<unknown>;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credentials.decrypted },
			)) as ApiResponse<unknown>;
		} catch (error) {
			gate.release(ticket);
			if (isCancellation(this, error)) throw new NodeOperationError(node, 'The execution was canceled');
			const code = errorCode(error);
			const detail = errorDetail(error);
			const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(detail);
			const notSent = (code !== undefined && NOT_SENT_CODES.has(code)) || request.bodySentWhole?.() === false;
			const retryable = notSent || (idempotent && (timedOut || (code !== undefined && NETWORK_CODES.has(code))));
			if (retryable && attempt < (timedOut && !notSent ? RETRY.maxTimeoutAttempts : RETRY.maxAttempts)) {
				await waitFor(this, backoffMs(attempt));
				continue;
			}
			throw platformNetworkError(node, {
				...where,
				code,
				detail,
				attempts: attempt,
				timeoutMs: timedOut ? timeoutMs : undefined,
				host: new URL(root).host,
			});
		}
		const { statusCode } = response;
		if (statusCode >= 200 && statusCode < 300) {
			gate.succeeded();
			gate.release(ticket);
			// n8n's client hands over a JSON answer it cannot parse as the raw text: a truncated body
			// or an HTML page. A read is asked again; anything else is reported, never passed on as data.
			if (request.stream || !unparsedJson(response.body, response.headers)) return response as ApiResponse<T>;
			// A delete the platform answered 2xx took place: asking again would only get a 404.
			if (method === 'DELETE' && !/^\s*</.test(String(response.body))) return { ...response, body: {} } as ApiResponse<T>;
			if (idempotent && attempt < RETRY.maxAttempts) {
				await waitFor(this, backoffMs(attempt));
				continue;
			}
			throw platformInvalidJsonError(node, { ...where, status: statusCode, body: response.body, headers: response.headers });
		}

		const body = request.stream ? await readStreamedBody(response.body) : response.body;
		const headers = response.headers ?? {};
		if (statusCode === 429 && rateLimited < RETRY.maxRateLimited) {
			// Not processed by the platform, so even a POST may be sent again: after the wait it asks
			// for, which the gate imposes on every request of this run.
			const asked = retryAfterMs(body, headers);
			if (asked === undefined || asked <= RETRY.maxRetryAfterMs) {
				rateLimited++;
				gate.rateLimitedFor(ticket, asked ?? backoffMs(rateLimited));
				gate.release(ticket);
				attempt--; // a 429 is counted on its own, not among the failed attempts
				continue;
			}
		}
		gate.release(ticket);
		const retryable = statusCode !== 429 && RETRYABLE_STATUSES.has(statusCode) && idempotent;
		if (retryable && attempt < RETRY.maxAttempts) {
			const asked = retryAfterMs(body, headers);
			if (asked === undefined || asked <= RETRY.maxRetryAfterMs) {
				await waitFor(this, asked ?? backoffMs(attempt));
				continue;
			}
		}
		throw platformHttpError(node, { ...where, status: statusCode, body, headers });
	}
}

/** The body of a successful answer. */
export async function apiRequest<T = unknown>(this: PlatformContext, request: ApiRequest): Promise<T> {
	return (await apiRequestFull.call(this, request)).body as T;
}
