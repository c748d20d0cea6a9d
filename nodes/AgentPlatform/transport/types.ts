import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	ISupplyDataFunctions,
} from 'n8n-workflow';

/** Every n8n context the nodes make requests from. */
export type PlatformContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| ISupplyDataFunctions;

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
	/**
	 * How many times a request the platform did not take (a 429, or a connection that failed before
	 * the request went out) is sent again; unset, until the rate-limit budget is spent.
	 */
	maxRetries?: number;
}

/** When a streamed answer must have ended: `at` (Date.now() time), `timeoutMs` after its send. */
export interface StreamDeadline {
	at: number;
	timeoutMs: number;
}

export interface ApiResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
	/** A streamed answer's: pass it to the reader of the stream (sse.ts). */
	streamDeadline?: StreamDeadline;
}
