import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describeRateLimit, seconds, type RateLimitWait } from './rateLimitWords';

/** What a failed exchange with the platform looked like, without any request header. */
export interface PlatformFailure {
	method: string;
	path: string;
	/** What the path names, in words, e.g. "agent 12". */
	resource?: string;
	itemIndex?: number;
}

export interface HttpFailure extends PlatformFailure {
	status: number;
	body: unknown;
	headers?: Record<string, unknown>;
	/** The wait the answer asked for (retryAfter.ts), as the request function read it. */
	askedMs?: number;
	/**
	 * For a 429 the node gave up on: how long it waited, and its budget (retryPolicy.ts);
	 * `heldMs` when nothing was sent, the key held by an earlier 429 longer than the budget left;
	 * `refusals` when this process was crowded off the key (its 429s came while it sent within its share).
	 */
	rateLimit?: RateLimitWait;
}

export interface NetworkFailure extends PlatformFailure {
	code?: string;
	detail: string;
	timeoutMs?: number;
	host: string;
	/** How many times the request was sent. */
	attempts?: number;
}

/** The platform's own words: its `message`, `error` and `messages` fields (Laravel or validation style). */
export function platformMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = body.trim();
		if (!text || text.startsWith('<')) return undefined; // an HTML error page says nothing useful
		return text.length > 300 ? `${text.slice(0, 300)}…` : text;
	}
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const parts: string[] = [];
	for (const key of ['message', 'error']) {
		const value = record[key];
		if (typeof value === 'string' && value && !parts.includes(value)) parts.push(value);
		if (value && typeof value === 'object' && typeof (value as JsonObject).message === 'string') {
			parts.push((value as JsonObject).message as string);
		}
	}
	for (const key of ['messages', 'errors']) {
		const details = record[key];
		if (details && typeof details === 'object') {
			for (const [field, value] of Object.entries(details as Record<string, unknown>)) {
				const texts = Array.isArray(value) ? value : [value];
				for (const text of texts) {
					const line = typeof text === 'string' ? text : JSON.stringify(text);
					if (!parts.includes(line))
						parts.push(Array.isArray(details) ? line : `${field}: ${line}`);
				}
			}
		}
	}
	return parts.length ? parts.join(' — ') : undefined;
}

function describeStatus(
	failure: HttpFailure,
	said: string | undefined,
): { message: string; description: string } {
	const { status } = failure;
	const what = failure.resource ?? 'the requested record';
	if (status === 401 || status === 403) {
		// Laravel's "This action is unauthorized." is a permission, not the key
		const aboutKey = said !== undefined && /authenticat|token|key|credential/i.test(said);
		if (status === 403 && said && !aboutKey && /workspace/i.test(said)) {
			return {
				message: 'The platform refused the workspace ID',
				description:
					'The Workspace ID in the "Agent Platform API" credential is not a workspace the API key\'s user belongs to.',
			};
		}
		if (status === 403 && said && !aboutKey) {
			return {
				message: `The platform refused this action: ${said}`,
				description: 'The API key is valid but may not do this.',
			};
		}
		return {
			message: 'The platform rejected the API key',
			description:
				'Check the API Key in the "Agent Platform API" credential: it may be mistyped, incomplete or revoked.',
		};
	}
	if (status === 404) {
		return {
			message: `The platform could not find ${what}`,
			description:
				'Check the ID: the record may have been deleted, or it may belong to another workspace.',
		};
	}
	if (status === 413) {
		return {
			message: 'The file is too large for the platform',
			description: 'The platform accepts files of at most 200 MB.',
		};
	}
	if (status === 422 && (!said || /workspace/i.test(said))) {
		return {
			message: 'The platform refused the workspace ID',
			description:
				'The Workspace ID in the "Agent Platform API" credential is missing or is not one of this API key\'s workspaces.',
		};
	}
	if (status === 400 || status === 422) {
		return {
			message: said
				? `The platform refused the request: ${said}`
				: 'The platform refused the request',
			description: 'Check the values given to this node against what the platform accepts.',
		};
	}
	if (status === 429) return describeRateLimit(failure);
	if (status >= 500) {
		return {
			message: `The platform had a problem on its side (HTTP ${status})`,
			description: "This is not caused by the node's settings. Try again later.",
		};
	}
	return {
		message: said
			? `The platform answered HTTP ${status}: ${said}`
			: `The platform answered HTTP ${status}`,
		description: 'Unexpected answer from the platform.',
	};
}

/** The one error mapper: every non-2xx answer becomes a NodeApiError a non-programmer can act on. */
export function platformHttpError(node: INode, failure: HttpFailure): NodeApiError {
	const said = platformMessage(failure.body);
	const { message, description } = describeStatus(failure, said);
	const details =
		said && !message.includes(said) ? `${description} The platform said: ${said}` : description;
	const response: JsonObject = {
		status: failure.status,
		request: `${failure.method} ${failure.path}`,
		body: (typeof failure.body === 'object' && failure.body !== null
			? failure.body
			: String(failure.body ?? '').slice(0, 1000)) as JsonObject,
	};
	return new NodeApiError(node, response, {
		message,
		description: details,
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
	});
}

/**
 * A success status whose body is not the JSON the API sends: cut short, or a web page (a proxy's or
 * a wrong Base URL's). Says the status and what arrived, never the parser's words; for a POST, that
 * the request may have taken effect.
 */
export function platformInvalidJsonError(node: INode, failure: HttpFailure): NodeApiError {
	const text = String(failure.body ?? '').trim();
	const page = text.startsWith('<');
	const tookEffect =
		failure.method === 'POST' ||
		failure.method === 'PATCH' ||
		failure.method === 'PUT' ||
		failure.method === 'DELETE'
			? ' The platform may have carried out the request: check before running it again.'
			: '';
	const response: JsonObject = {
		status: failure.status,
		request: `${failure.method} ${failure.path}`,
		body: text.slice(0, 1000),
	};
	return new NodeApiError(node, response, {
		message: page
			? `The platform answered HTTP ${failure.status} with a web page instead of JSON`
			: `The platform's answer (HTTP ${failure.status}) is not valid JSON`,
		description:
			(page
				? 'Something other than the Agent Platform API answered: check the Base URL in the "Agent Platform API" credential, and any proxy in between.'
				: 'The answer was cut short or garbled on its way.') + tookEffect,
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
	});
}

/** A request that never got an answer: refused, reset, unresolvable host or timeout. */
export function platformNetworkError(node: INode, failure: NetworkFailure): NodeApiError {
	let message: string;
	let description: string;
	if (failure.timeoutMs !== undefined) {
		message = `The platform did not answer within ${seconds(failure.timeoutMs)}`;
		const asked = (failure.attempts ?? 1) > 1 ? ` It was asked ${failure.attempts} times.` : '';
		description = `The request timed out.${asked} The platform may be overloaded; try again later.`;
	} else if (failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN') {
		message = `Could not find the platform's address (${failure.host})`;
		description = 'Check the Base URL in the "Agent Platform API" credential.';
	} else if (
		failure.code === 'ECONNREFUSED' ||
		failure.code === 'EHOSTUNREACH' ||
		failure.code === 'ENETUNREACH'
	) {
		message = `Could not connect to the platform at ${failure.host}`;
		description =
			'Nothing accepted the connection. Check the Base URL in the "Agent Platform API" credential, and that the platform is up.';
	} else {
		message = 'The connection to the platform broke before it answered';
		description = 'The platform or the network closed the connection. Try again later.';
	}
	// Codes like ECONNREFUSED stay out of the message and out of any `code`-like key:
	// NodeApiError would swap the whole message for n8n's generic text.
	const response: JsonObject = {
		request: `${failure.method} ${failure.path}`,
		detail: failure.detail,
		...(failure.code ? { networkError: failure.code } : {}),
	};
	return new NodeApiError(node, response, {
		message,
		description: `${description} (${failure.detail})`,
		itemIndex: failure.itemIndex,
	});
}

/** Keeps n8n's own errors as they are (with the item they belong to, when known) and wraps anything else. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, itemIndex === undefined ? {} : { itemIndex });
}
