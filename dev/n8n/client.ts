/**
 * A running n8n's two APIs: the editor's REST API (`/rest/...`, signed in with its cookie) and
 * the public API (`/api/v1/...`, with an API key created after the owner setup).
 */
import { request } from 'node:http';

import { sleep } from './wait';

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: OwnerAccount = {
	email: 'owner@example.com',
	password: 'E2e-Owner-Passw0rd',
	firstName: 'Test',
	lastName: 'Owner',
};

/** The browser id n8n binds a login to (its editor keeps one in localStorage, `n8n-browserId`). */
export const BROWSER_ID = 'agent-platform-e2e-browser';

/** The APIs of the n8n at `baseUrl`; N8nInstance is one, for the n8n it starts. */
export class N8nClient {
	readonly baseUrl: string;
	apiKey: string | undefined;
	/** The editor's login cookie (forgotten when n8n stops). */
	cookie: string | undefined;

	constructor(baseUrl: string) {
		this.baseUrl = baseUrl;
	}

	/** A call to the editor's REST API (`/rest/...`) with the login cookie, if any. */
	async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const headers: Record<string, string> = { 'browser-id': BROWSER_ID };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.cookie) headers.cookie = this.cookie;
		const res = await send(`${this.baseUrl}/rest${path}`, method, headers, body, 30_000);
		const setCookie = res.headers.get('set-cookie');
		const auth = setCookie?.match(/n8n-auth=[^;]*/)?.[0];
		if (auth) this.cookie = auth;
		const text = await res.text();
		if (!res.ok)
			throw new Error(`${method} /rest${path}: HTTP ${res.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? JSON.parse(text) : {};
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	}

	/** A call to the public API (`/api/v1/...`) with the API key from setupOwnerAndApiKey(). */
	async api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('no API key: call setupOwnerAndApiKey() first');
		const headers: Record<string, string> = {
			'X-N8N-API-KEY': this.apiKey,
			accept: 'application/json',
		};
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await send(`${this.baseUrl}/api/v1${path}`, method, headers, body, 60_000);
		const text = await res.text();
		if (!res.ok)
			throw new Error(`${method} /api/v1${path}: HTTP ${res.status}: ${text.slice(0, 2000)}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	/**
	 * On a running n8n: sets up the owner, logs in and creates an API key with every scope
	 * the instance offers. Returns the key (also kept for api()).
	 */
	async setupOwnerAndApiKey(owner: OwnerAccount = DEFAULT_OWNER): Promise<string> {
		await this.rest('POST', '/owner/setup', owner);
		await this.login(owner);
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: `e2e ${Date.now()}`,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** Logs in: the editor's session cookie for rest(). */
	async login(owner: Pick<OwnerAccount, 'email' | 'password'> = DEFAULT_OWNER): Promise<void> {
		const body = { emailOrLdapLoginId: owner.email, password: owner.password };
		await this.rest('POST', '/login', body);
	}

	/**
	 * Creates a credential through the editor's API (a request, where `n8n import:credentials`
	 * starts n8n's CLI for seconds); n8n gives it an id of its own, returned here.
	 */
	async createCredential(credential: {
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<string> {
		const { name, type, data } = credential;
		return (await this.rest<{ id: string }>('POST', '/credentials', { name, type, data })).id;
	}

	/**
	 * Creates a workflow, inactive, through the editor's API (a request, where `n8n import:workflow`
	 * starts n8n's CLI for seconds). n8n 2.x keeps the workflow's id, 1.x gives it one of its own:
	 * the id n8n gave is returned.
	 */
	async createWorkflow(workflow: {
		id: string;
		name: string;
		[key: string]: unknown;
	}): Promise<string> {
		return (await this.rest<{ id: string }>('POST', '/workflows', { ...workflow, active: false }))
			.id;
	}

	/**
	 * Credentials, then workflows whose nodes name them, through the editor's API (requests, where
	 * n8n's import commands start its CLI for seconds each). n8n gives credentials ids of its own
	 * (and 1.x workflows too): the nodes' references follow. Returns each given id → n8n's.
	 */
	async createAll(
		credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>,
		workflows: Array<{ id: string; name: string; nodes?: Array<Record<string, unknown>> }>,
	): Promise<Map<string, string>> {
		const given = new Map<string, string>();
		for (const credential of credentials)
			given.set(credential.id, await this.createCredential(credential));
		for (const workflow of workflows) {
			const nodes = workflow.nodes?.map((node) => {
				const refs = node.credentials as Record<string, { id: string; name: string }> | undefined;
				if (!refs) return node;
				const ids = Object.entries(refs).map(([type, ref]) => [
					type,
					{ ...ref, id: given.get(ref.id) ?? ref.id },
				]);
				return { ...node, credentials: Object.fromEntries(ids) };
			});
			given.set(workflow.id, await this.createWorkflow({ ...workflow, nodes }));
		}
		return given;
	}

	async activate(workflowId: string): Promise<void> {
		await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.api('POST', `/workflows/${workflowId}/deactivate`);
	}

	/**
	 * POSTs `body` as JSON to the production webhook `path` of an active workflow; its answer's
	 * status and body (parsed JSON, or `{ text }` with the first 300 characters when not JSON).
	 * No time limit: a workflow answering with its last node answers when the execution ends, which
	 * under a rate limit can take longer than fetch's 300 s wait for headers. n8n answers 404, and
	 * runs nothing, until it has registered an activated workflow's webhook: `registeredWithinMs`
	 * asks again every half second for that long.
	 */
	async postWebhook(
		path: string,
		body: unknown = {},
		opts: { registeredWithinMs?: number } = {},
	): Promise<{ status: number; body: unknown }> {
		const deadline = Date.now() + (opts.registeredWithinMs ?? 0);
		for (;;) {
			const answer = await this.postWebhookOnce(path, body);
			if (answer.status !== 404 || Date.now() >= deadline) return answer;
			await sleep(500);
		}
	}

	private async postWebhookOnce(
		path: string,
		body: unknown,
	): Promise<{ status: number; body: unknown }> {
		const res = await sendOnNewConnection(
			`${this.baseUrl}/webhook/${path}`,
			'POST',
			{ 'content-type': 'application/json' },
			body,
			120_000,
		);
		const text = await res.text();
		try {
			return { status: res.status, body: JSON.parse(text) as unknown };
		} catch {
			return { status: res.status, body: { text: text.slice(0, 300) } };
		}
	}

	/** Executions of a workflow, newest first, with their data (`includeData`) by default. */
	async getExecutions(
		workflowId: string,
		opts: { includeData?: boolean; status?: string; limit?: number } = {},
	): Promise<Array<Record<string, unknown>>> {
		const query = new URLSearchParams({
			workflowId,
			includeData: String(opts.includeData ?? true),
			limit: String(opts.limit ?? 100),
		});
		if (opts.status) query.set('status', opts.status);
		const page = await this.api<{ data: Array<Record<string, unknown>> }>(
			'GET',
			`/executions?${query}`,
		);
		return page.data;
	}
}

/**
 * Whether a request failed because its connection closed before any answer ("fetch failed: other
 * side closed"). Node's fetch keeps a connection to n8n open between requests, and n8n's server
 * closes one idle for 5 s (Node's keepAliveTimeout): a request sent on it as it closes is never
 * read. Within a jest worker the pool outlives a test file, so the next file's first request to the
 * shared n8n met it on a loaded machine. Read by name and code: fetch's errors are made in Node's own
 * realm, not the test's, so `instanceof TypeError` is false for them under jest.
 */
function closedUnanswered(error: unknown): boolean {
	const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
	return (error as Error | undefined)?.name === 'TypeError' && cause?.code === 'UND_ERR_SOCKET';
}

/**
 * One request of either API. A read goes by fetch (its pooled connections), sent again while its
 * connection closes unanswered; a change goes on a connection of its own, which n8n cannot have
 * closed as idle (sent again, a change might be made twice).
 */
function send(
	url: string,
	method: string,
	headers: Record<string, string>,
	body: unknown,
	timeoutMs: number,
): Promise<Response> {
	if (method !== 'GET') return sendOnNewConnection(url, method, headers, body, timeoutMs);
	return againWhenClosedUnanswered(() =>
		fetch(url, { method, headers, signal: AbortSignal.timeout(timeoutMs) }),
	);
}

/**
 * A request on a new connection, closed after its answer (`agent: false`): n8n's server closes a
 * kept-alive connection idle for 5 s, and a request sent on one as it closes is never read (a busy
 * machine's run met that on a file's first change: "fetch failed: other side closed").
 */
function sendOnNewConnection(
	url: string,
	method: string,
	headers: Record<string, string>,
	body: unknown,
	timeoutMs: number,
): Promise<Response> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise<Response>((resolve, reject) => {
		const req = request(
			url,
			{
				method,
				agent: false,
				headers: {
					...headers,
					...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }),
				},
				signal: AbortSignal.timeout(timeoutMs),
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('error', reject);
				res.on('end', () => {
					const answer = new Headers();
					for (const [name, value] of Object.entries(res.headers))
						for (const one of Array.isArray(value) ? value : [value ?? ''])
							answer.append(name, one);
					const status = res.statusCode ?? 0;
					const text = Buffer.concat(chunks);
					// a Response of these statuses may have no body
					const empty = status === 204 || status === 304 || text.length === 0;
					resolve(new Response(empty ? null : text, { status, headers: answer }));
				});
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/** Runs `request` again (up to 5 times, a second apart) while its connection closes unanswered. */
async function againWhenClosedUnanswered<T>(request: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await request();
		} catch (error) {
			if (!closedUnanswered(error) || attempt === 5) throw error;
			await sleep(1_000);
		}
	}
}
