/**
 * The one request function: every call to the platform goes through here, over n8n's
 * httpRequestWithAuthentication, after waiting in the credential's pace (pace/). It
 * retries what may be retried (retryPolicy.ts) and maps every failure (errors.ts).
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { cancelSignal, executionCanceled, throwIfCancelled, waitFor } from './cancellation';
import { CREDENTIAL_TYPE, credentialsOf } from './credentials';
import { platformHttpError, platformInvalidJsonError, platformNetworkError } from './errors';
import { readStreamedBody, unparsedJson } from './json';
import {
	backoffMs,
	errorCode,
	judgeNetworkError,
	RETRY,
	RETRYABLE_STATUSES,
	REQUEST_TIMEOUT,
} from './retryPolicy';
import type { Pace, PaceSlot } from './pace';
import { retryAfterMs } from './retryAfter';
import type { RateLimitWait } from './rateLimitWords';
import type { ApiRequest, ApiResponse, PlatformContext } from './types';

/**
 * How long a lookup from the editor (pickers, dropdowns, the answers form) may wait behind the
 * pace: the editor shows nothing while it waits, so past this the user is told why instead.
 */
export const EDITOR_WAIT_MS = 4_000;

/** A lookup from the editor: only load-options contexts read the node's current parameters. */
function fromEditor(ctx: PlatformContext): boolean {
	return typeof (ctx as Partial<ILoadOptionsFunctions>).getCurrentNodeParameters === 'function';
}

function isCancellation(ctx: PlatformContext, error: unknown): boolean {
	return errorCode(error) === 'ERR_CANCELED' || cancelSignal(ctx)?.aborted === true;
}

export async function apiRequestFull<T = unknown>(
	ctx: PlatformContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	const { baseUrl: root, decrypted, pace } = await credentialsOf(ctx);
	const node = ctx.getNode();
	const method = request.method;
	const timeoutMs = request.timeoutMs ?? REQUEST_TIMEOUT.defaultMs;
	const idempotent = method !== 'POST';
	const options: IHttpRequestOptions = {
		method,
		url: `${root}${request.path}`,
		qs: request.qs,
		headers: {
			Accept: request.stream ? 'text/event-stream' : 'application/json',
			...(request.headers ?? {}),
		},
		json: !request.stream,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// follow-redirects would keep a copy of every uploaded byte to replay it
		disableFollowRedirect: true,
		...(request.stream ? { encoding: 'stream' as const } : {}),
	};
	if (request.body !== undefined) options.body = request.body as IDataObject;
	const where = {
		method,
		path: request.path,
		resource: request.resource,
		itemIndex: request.itemIndex,
	};
	const startedAt = Date.now();
	const maxWaitMs = fromEditor(ctx) ? EDITOR_WAIT_MS : Infinity;
	let refused = false;
	// sends again of requests the platform did not take, against the caller's maxRetries
	let resent = 0;
	const mayResend = () => request.maxRetries === undefined || resent++ < request.maxRetries;

	// how long this request waited on 429s, against its budget, and what the pace saw meanwhile
	const rateLimitWait = (): RateLimitWait => {
		const crowd = pace.crowd();
		return {
			waitedMs: pace.quietForMs(startedAt),
			budgetMs: crowd ? RETRY.maxCrowdedWaitMs : RETRY.maxRateLimitWaitMs,
			...(crowd ? { refusals: crowd.refusals } : {}),
		};
	};

	for (let attempt = 1; ; attempt++) {
		throwIfCancelled(ctx);
		const slot = await pace.take(ctx, refused || attempt > 1, {
			maxWaitMs: maxWaitMs - (Date.now() - startedAt),
			// the key held past the rate-limit budget left: fail now, as the 429 that held it did
			maxHeldMs: () => {
				const budget = rateLimitWait();
				return budget.budgetMs - budget.waitedMs;
			},
			heldTooLong: (hold) =>
				platformHttpError(node, {
					...where,
					status: 429,
					body: undefined,
					askedMs: hold.askedMs,
					rateLimit: { ...rateLimitWait(), heldMs: hold.leftMs },
				}),
		});
		const outcome = await exchange(ctx, pace, slot, options, {
			decrypted,
			stream: request.stream === true,
			timeoutMs,
		});
		if ('error' in outcome) {
			const { error } = outcome;
			if (isCancellation(ctx, error)) throw executionCanceled(node);
			const verdict = judgeNetworkError(error, {
				idempotent,
				attempt,
				bodySentWhole: request.bodySentWhole,
			});
			if (verdict.retry && mayResend()) {
				await waitFor(ctx, backoffMs(attempt));
				continue;
			}
			throw platformNetworkError(node, {
				...where,
				code: verdict.code,
				detail: verdict.detail,
				attempts: attempt,
				timeoutMs: verdict.timedOut ? timeoutMs : undefined,
				host: new URL(root).host,
			});
		}
		const { response, body, asked } = outcome;
		const { statusCode } = response;
		const headers = response.headers ?? {};
		if (statusCode >= 200 && statusCode < 300) {
			// n8n's client hands over a JSON answer it cannot parse as the raw text: a truncated body
			// or an HTML page. A read is asked again; anything else is reported, never passed on as data.
			if (request.stream || !unparsedJson(response.body, headers))
				return response as ApiResponse<T>;
			// A delete the platform answered 2xx took place: asking again would only get a 404.
			if (method === 'DELETE' && !/^\s*</.test(String(response.body))) {
				return { ...response, body: {} } as ApiResponse<T>;
			}
			if (idempotent && attempt < RETRY.maxAttempts) {
				await waitFor(ctx, backoffMs(attempt));
				continue;
			}
			throw platformInvalidJsonError(node, {
				...where,
				status: statusCode,
				body: response.body,
				headers,
			});
		}

		if (statusCode === 429) {
			// Not processed by the platform, so even a POST may be sent again, after the wait it asks
			// for (every request of this credential waits for it in the pace). The budget is time: a request
			// gives up only when nothing sent with its key got through for that long.
			const waited = rateLimitWait();
			// an editor lookup is told how long the key is held rather than wait past EDITOR_WAIT_MS
			if (Date.now() + (asked ?? 0) > startedAt + maxWaitMs) throw pace.heldError(ctx);
			if (
				(asked ?? 0) <= RETRY.maxRateLimitWaitMs &&
				waited.waitedMs < waited.budgetMs &&
				mayResend()
			) {
				refused = true;
				attempt--; // a 429 is not a failed attempt
				continue;
			}
			throw platformHttpError(node, {
				...where,
				status: statusCode,
				body,
				headers,
				askedMs: asked,
				rateLimit:
					(asked ?? 0) > RETRY.maxRateLimitWaitMs
						? { waitedMs: Date.now() - startedAt, budgetMs: RETRY.maxRateLimitWaitMs }
						: { ...waited, waitedMs: Date.now() - startedAt },
			});
		}
		const retryable = RETRYABLE_STATUSES.has(statusCode) && idempotent;
		if (retryable && attempt < RETRY.maxAttempts && (asked ?? 0) <= RETRY.maxRetryAfterMs) {
			await waitFor(ctx, asked ?? backoffMs(attempt));
			continue;
		}
		throw platformHttpError(node, { ...where, status: statusCode, body, headers, askedMs: asked });
	}
}

type Exchange =
	{ response: ApiResponse<unknown>; body: unknown; asked?: number } | { error: unknown };

/**
 * One send with its slot, which is given back here on every path (answered, refused, a body that
 * breaks or stalls, a timeout, a cancellation, a thrown error): a slot not given back would
 * keep the key behind the slow start.
 * The pace learns from every answer; an error is handed back, not thrown, so that nothing the
 * caller does next (a back-off, a retry) still has the slot.
 */
async function exchange(
	ctx: PlatformContext,
	pace: Pace,
	slot: PaceSlot,
	options: IHttpRequestOptions,
	send: { decrypted: ICredentialsDecrypted; stream: boolean; timeoutMs: number },
): Promise<Exchange> {
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
			{ credentialsDecrypted: send.decrypted },
		)) as ApiResponse<unknown>;
		const headers = response.headers ?? {};
		if (response.statusCode >= 200 && response.statusCode < 300) {
			pace.answered(slot, response.statusCode, headers);
			// a stream goes on after its headers: it ends within the request's timeout, from its send
			if (send.stream)
				response.streamDeadline = { at: slot.sentAt + send.timeoutMs, timeoutMs: send.timeoutMs };
			return { response, body: response.body };
		}
		const body = send.stream
			? await readStreamedBody(response.body, Math.min(send.timeoutMs, REQUEST_TIMEOUT.errorBodyMs))
			: response.body;
		// the wait asked, read once: the pace, the retry and the error all use this reading
		const asked = retryAfterMs(body, headers);
		pace.answered(slot, response.statusCode, headers, asked);
		return { response, body, asked };
	} catch (error) {
		return { error };
	} finally {
		pace.release(slot);
	}
}

/** The body of a successful answer. */
export async function apiRequest<T = unknown>(
	ctx: PlatformContext,
	request: ApiRequest,
): Promise<T> {
	return (await apiRequestFull(ctx, request)).body as T;
}
