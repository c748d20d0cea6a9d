/**
 * Public option/fault/record types of the platform emulator, and the typed in-memory store.
 * Stored records carry exactly the public fields of the spec plus a few internal ones; the
 * serializers in each section module pick the public field set for the wire.
 */

export interface EmulatorFaults {
	/** Added before every answer (default 0). */
	latencyMs: number;
	/** 0 = off; else a token bucket per API key refilled at this rate; excess gets 429 + Retry-After. */
	rateLimitPerSecond: number;
	/** The token bucket's size (default: the rate, at least 1). */
	rateLimitBurst?: number;
	/**
	 * A fixed window per API key instead of the bucket: `limit` requests per `seconds`, with
	 * Laravel's X-RateLimit-Limit / X-RateLimit-Remaining headers on every answer.
	 */
	rateLimitWindow?: { limit: number; seconds: number } | null;
	/** Override of the retry_after value given on 429 (default: the time to the next token, or left in the window). */
	retryAfterSeconds?: number;
	/** 0..1 probability that a request is answered with serverErrorStatus instead. */
	serverErrorRate: number;
	/** Default 503. */
	serverErrorStatus: number;
	/** If true the 5xx is sent after the request took effect. */
	serverErrorAfterProcessing?: boolean;
	/** SSE streams: destroy the socket after N events. */
	cutStreamAfterEvents: number | null;
	/** SSE streams: after N events stop writing but keep the connection open. */
	silentStreamAfterEvents: number | null;
	/**
	 * Error answers (status 400 and up): their headers and half their body are sent, then the
	 * connection is cut ('reset') or goes quiet ('silent'). null = off.
	 */
	errorBodyCut?: 'reset' | 'silent' | null;
	/** 0..1: answer 200 with a truncated JSON body (after processing). */
	malformedJsonRate?: number;
	/** 0..1: answer 502 with an HTML error page. */
	htmlErrorRate?: number;
	/** 0..1: destroy the socket without answering. */
	resetConnectionRate?: number;
	/** 0..1: accept the request and never answer. */
	hangRate?: number;
	/**
	 * Production's gateway (Cloudflare): a request not answered within this many virtual seconds
	 * gets an HTML 524 page while its work goes on (a waiting execute keeps running). null = off.
	 */
	gatewayTimeoutSeconds?: number | null;
	/** When set, JSON answers to POST requests become status 200 with `{"error": <this>}` (after processing). */
	okErrorBody?: string | null;
	/**
	 * A POST the origin carried out (an execute starts its run) whose answer never reaches the
	 * client: 'reset' cuts the connection, 524 sends the gateway's HTML page instead. null = off.
	 */
	cutAfterProcessing?: 'reset' | 524 | null;
	/**
	 * An execute stream (stream: true) ends with `{"error": <this>}` instead of the run's last
	 * record, as the platform reports a failure it has no run record for. null = off.
	 */
	executeStreamError?: string | null;
	/** POST /v2/files/sign and /register: 'on' (default), or the status a platform without them answers. */
	signedUploads?: 'on' | 404 | 405;
	/** The sign step hands out a URL whose signature the storage host refuses (403). */
	signedUrlTampered?: boolean;
	/** The spelling of the sign step's answer: 'snake' (default) or 'camel' (uploadUrl, objectPath, requiredHeaders). */
	signedUploadSpelling?: 'snake' | 'camel';
	/** When set, the request-level faults (hang, reset, 5xx, HTML, malformed JSON) hit only these methods, e.g. ['POST']. */
	faultMethods?: string[];
}

export interface EmulatorOptions {
	host?: string;
	port?: number;
	basePath?: string;
	apiKey?: string;
	workspaceId?: string;
	/** Virtual seconds per real second (default 1). */
	timeScale?: number;
	/** Default virtual duration of an execution (default 3). */
	executionSeconds?: number;
	/** Default virtual duration of file processing (default 2). */
	fileProcessingSeconds?: number;
	requireHttpsWebhooks?: boolean;
	maxStoredFiles?: number;
	/**
	 * The largest per_page of the lists whose maximum is not documented (agents, webhooks,
	 * resources, agent responses): a larger ask gets this many, and the envelope's per_page says so,
	 * as Laravel answers (default 100).
	 */
	maxPerPage?: number;
	/** Those lists refuse a larger per_page with a 422 instead of capping it (default false). */
	strictPerPage?: boolean;
	/** POST /files answers 413 above this many bytes (default 32 MiB, as production's front end). */
	maxDirectUploadBytes?: number;
	/** Port of the storage host (signed uploads, generated files); default any free one. */
	storagePort?: number;
	seed?: { agents?: number; memories?: number; resources?: number };
	faults?: Partial<EmulatorFaults>;
	quiet?: boolean;
	/** Chat agents' model calls go to this OpenAI-compatible endpoint, not the stand-in (modelEndpoint.ts). */
	model?: ModelEndpoint;
}

export interface RecordedFile {
	field: string;
	filename: string;
	mimeType: string;
	bytes: number;
	sha256: string;
}

export interface RecordedMultipart {
	fields: Record<string, string>;
	files: RecordedFile[];
}

export interface RecordedRequest {
	method: string;
	/** Path relative to basePath, without the query. */
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON, a RecordedMultipart for uploads, raw text otherwise, null when empty. */
	body: unknown;
	/** Status answered (0 if the socket was cut or the request hung). */
	status: number;
	/** Date.now() when received. */
	at: number;
	/** What went to the model endpoint for this request (never its key), and its status. */
	forwarded?: { url: string; body: unknown; status: number };
	/** Streamed answers: when each event was written, in ms since the epoch with sub-ms precision (performance clock). */
	eventsSentAt?: number[];
}

export interface AgentConfig {
	executionSeconds?: number;
	fail?: boolean | string;
	output?: string;
	streamEvents?: number;
	/** `generated_files` of later successful runs, as given (URL strings or objects). */
	generatedFiles?: unknown[];
	/** Scripted outputs of later runs, one per run in order; the last one stays (see scriptedReplies.ts). */
	outputs?: string[];
	/**
	 * Exact replies of later chat completions, one per request in order, the last one stays; a
	 * reply cut off by the model's length limit as `{output, finishReason: 'length'}`
	 * (scriptedReplies.ts).
	 */
	replies?: Array<string | { output: string; finishReason: 'stop' | 'length' }>;
}

export interface Delivery {
	webhookId: number;
	url: string;
	/** HTTP status of the receiver's answer, 0 on a network error or timeout. */
	status: number;
	body: unknown;
	at: number;
}

export type AgentType = 'chat' | 'image' | 'text' | 'video';

/** A select option as public clients show them: a plain string, `label:value`, or `{label, value}`. */
export type QuestionOption = string | { label: string; value: string };

export interface Question {
	type: 'select' | 'number' | 'array' | 'text' | 'textarea' | 'multiselect' | 'file';
	name: string;
	description: string;
	required: boolean;
	options?: QuestionOption[];
	/** The answer used when none is sent. */
	default?: string | number;
}

export interface StoredAgent {
	id: number;
	title: string;
	description: string | null;
	long_description: string | null;
	workspace_id: number;
	visibility: string;
	slug: string;
	active: number;
	type: AgentType;
	questions: Question[];
	created_at: string;
	updated_at: string;
	created_by: number;
	/** Internal: ids of files linked to the agent, in link order. */
	fileIds: number[];
	/** Internal: seeded failure message (the "Always Fails" agent). */
	failMessage?: string;
}

export type ResponseStatus = 'starting' | 'running' | 'succeeded' | 'failed';

export interface StoredRun {
	id: number;
	status: ResponseStatus;
	input: string;
	output: string;
	error: string | null;
	credits: number | null;
	root_id: number;
	created_at: string;
	updated_at: string;
	template_id: number;
	/** Internal: the answers used for this execution, and the attached files. */
	answers: Record<string, unknown>;
	fileIds: number[];
	via: 'execute' | 'stream' | 'openai';
	/** Internal: the memory collections the run was given (memory_collections). */
	memoryCollections?: number[];
	/** What an image or video agent produced, set when the run succeeds: the storage host's files
	 * (media.ts), or what a test configured (AgentConfig.generatedFiles: URL strings or objects). */
	generated_files?: unknown[];
}

export interface StoredFile {
	id: number;
	object: 'file';
	created_at: string;
	bytes: number;
	filename: string;
	credits: number;
	status: 'waiting' | 'completed';
	/** Internal. */
	mimeType: string;
	sha256: string;
	/** The content, kept only for files of at most 1 MB. */
	content: Buffer | null;
}

export interface StoredMemory {
	id: number;
	user_id: number;
	collection_id: number;
	memory: string;
	credits: number;
}

export interface StoredCollection {
	id: number;
	user_id: number;
	name: string;
	display_name: string;
}

export interface StoredWebhook {
	id: number;
	template_id: number;
	user_id: number;
	url: string;
	method: 'POST' | 'GET';
	success_count: number;
	failure_count: number;
	status: 'active' | 'inactive';
	created_at: string;
	updated_at: string;
	deleted_at: string | null;
}

export interface StoredResource {
	id: string;
	title: string;
	description: string;
	created_at: string;
	updated_at: string;
	type: string;
	/** Internal: searched by q, not listed. */
	long_description: string;
}

export interface EmulatorState {
	agents: Map<number, StoredAgent>;
	runs: Map<number, StoredRun>;
	files: Map<number, StoredFile>;
	memories: Map<number, StoredMemory>;
	collections: Map<number, StoredCollection>;
	webhooks: Map<number, StoredWebhook>;
	resources: Map<string, StoredResource>;
}

/** The user every request is made on behalf of. */
export const USER_ID = 7;
/** Id of the default memory collection. */
export const DEFAULT_COLLECTION_ID = 1;

/** An object the storage host keeps (storage.ts). */
export interface StoredObject {
	path: string;
	contentType: string;
	bytes: number;
	sha256: string;
	content: Buffer | null;
}

export interface StorageRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	status: number;
	/** Body bytes received (PUT). */
	bytes: number;
	sha256: string;
	at: number;
}

/** A model of one's own behind the emulator (modelEndpoint.ts): an OpenAI-compatible endpoint. */
export interface ModelEndpoint {
	/** The API's base URL, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is added. */
	url: string;
	/** Sent as `Authorization: Bearer …` when given. */
	key?: string;
	/** The model asked for; default the model the request names. */
	model?: string;
}
