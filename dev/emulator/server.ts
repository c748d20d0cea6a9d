/**
 * The HTTP server: routing, auth (bearer key + x-workspace-id), fault injection, recording of
 * every request, SSE plumbing, and the unauthenticated control API under /_emulator.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../loopback';
import * as agents from './agents';
import * as collections from './collections';
import type { Core } from './core';
import * as executions from './executions';
import * as files from './files';
import { CLOUDFLARE_524_HTML, cutAfterProcessing, okErrorBody, underGateway } from './gateway';
import * as generatedFiles from './generatedFiles';
import { HttpError, json } from './http';
import type { Ctx, JsonReply, Reply, SseSink } from './http';
import * as memories from './memories';
import * as resources from './resources';
import * as responseList from './responseList';
import * as signedUploads from './signedUploads';
import type { AgentConfig, EmulatorFaults, RecordedRequest } from './types';
import * as webhooks from './webhooks';

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

interface Route {
	method: string;
	segments: string[];
	handler: Handler;
	/** The handler reads the body itself (multipart upload). */
	rawBody?: boolean;
}

function route(method: string, pattern: string, handler: Handler, rawBody = false): Route {
	return { method, segments: pattern.split('/').filter(Boolean), handler, rawBody };
}

export const ROUTES: Route[] = [
	// Agents and executions
	route('GET', '/agents', agents.listAgents),
	route('GET', '/agents/:id', agents.getAgent),
	route('POST', '/agents/:id/execute', executions.execute),
	route('POST', '/agents/:id/openai/chat/completions', executions.chatCompletions),
	route('GET', '/agent-responses', responseList.listResponses),
	route('GET', '/generated-files/:name', generatedFiles.serveGeneratedFile),
	route('GET', '/agent-responses/:id', executions.getResponse),
	// Files
	route('POST', '/files', files.uploadFile, true),
	route('GET', '/files', files.listFiles),
	route('GET', '/files/:fileId', files.getFile),
	route('DELETE', '/files/:fileId', files.deleteFile),
	route('POST', '/files/:fileId/process', files.processFile),
	route('POST', '/v2/files/sign', signedUploads.signUpload),
	route('POST', '/v2/files/register', signedUploads.registerUpload),
	route('POST', '/agents/:id/files', agents.linkFiles),
	route('GET', '/agents/:id/files', agents.listAgentFiles),
	route('DELETE', '/agents/:id/files/:fileId', agents.unlinkFile),
	// Memories and collections
	route('POST', '/memories', memories.createMemory),
	route('GET', '/memories', memories.listMemories),
	route('PATCH', '/memories/:memoryId', memories.updateMemory),
	route('DELETE', '/memories/:memoryId', memories.deleteMemory),
	route('POST', '/memory-collections', collections.createCollection),
	route('GET', '/memory-collections', collections.listCollections),
	route('PUT', '/memory-collections/:collectionId', collections.updateCollection),
	route('DELETE', '/memory-collections/:collectionId', collections.deleteCollection),
	// Webhooks
	route('GET', '/agents/:id/webhooks', webhooks.listAgentWebhooks),
	route('POST', '/agents/:id/webhooks', webhooks.createWebhook),
	route('GET', '/webhooks', webhooks.listWebhooks),
	route('DELETE', '/webhooks/:id', webhooks.deleteWebhook),
	// Resources
	route('GET', '/resources', resources.listResources),
];

function matchSegments(r: Route, parts: string[]): Record<string, string> | null {
	if (r.segments.length !== parts.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < parts.length; i++) {
		const s = r.segments[i];
		if (s.startsWith(':')) {
			let v: string;
			try {
				v = decodeURIComponent(parts[i]);
			} catch {
				v = parts[i];
			}
			params[s.slice(1)] = v;
		} else if (s !== parts[i]) return null;
	}
	return params;
}

export function findRoute(
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
	const parts = path.split('/').filter(Boolean);
	const allowed: string[] = [];
	for (const r of ROUTES) {
		const params = matchSegments(r, parts);
		if (!params) continue;
		if (r.method === method) return { route: r, params };
		allowed.push(r.method);
	}
	return allowed.length ? { allowed } : null;
}

const MAX_JSON_BODY = 20 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > MAX_JSON_BODY) tooLarge = true;
			else chunks.push(c);
		});
		req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
		req.on('error', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
		req.on('aborted', () => resolve({ text: '', tooLarge }));
	});
}

function parseBody(text: string, contentType: string): { body: unknown; error: boolean } {
	if (text === '') return { body: null, error: false };
	const ct = contentType.toLowerCase();
	if (ct.includes('application/x-www-form-urlencoded')) {
		return { body: Object.fromEntries(new URLSearchParams(text)), error: false };
	}
	if (ct.includes('json') || ct === '' || /^\s*[[{]/.test(text)) {
		try {
			return { body: JSON.parse(text), error: false };
		} catch {
			return { body: text, error: ct.includes('json') };
		}
	}
	return { body: text, error: false };
}

/** What a rate limiter says about one request. */
type RateVerdict =
	| { ok: true; headers: Record<string, string> }
	| { ok: false; retryAfterSeconds: number; headers: Record<string, string> };

/**
 * The two limiter models production may use, per API key:
 * - a token bucket (rate R, burst B): no headers on success; a 429's `retry_after` is the time
 *   to the next token (in seconds, fractional), its `Retry-After` that rounded up;
 * - a fixed window (L requests per W seconds), as Laravel's throttle middleware: the window opens
 *   at the first request after the last one ended, every answer carries `X-RateLimit-Limit` and
 *   `X-RateLimit-Remaining`, and a 429 (which does not count) carries the seconds left in the
 *   window as `Retry-After` and `retry_after`, and the window's end as `X-RateLimit-Reset`.
 */
class RateLimiter {
	private readonly buckets = new Map<string, { tokens: number; last: number }>();
	private readonly windows = new Map<string, { count: number; endsAt: number }>();
	private config = '';

	check(key: string, f: EmulatorFaults): RateVerdict | null {
		const config = JSON.stringify([f.rateLimitPerSecond, f.rateLimitBurst, f.rateLimitWindow]);
		if (config !== this.config) {
			this.reset();
			this.config = config;
		}
		if (f.rateLimitWindow && f.rateLimitWindow.limit > 0)
			return this.window(key, f.rateLimitWindow);
		if (f.rateLimitPerSecond > 0) return this.bucket(key, f.rateLimitPerSecond, f.rateLimitBurst);
		return null;
	}

	private bucket(key: string, rps: number, burst: number | undefined): RateVerdict {
		const cap = Math.max(1, burst ?? rps);
		const now = Date.now();
		const b = this.buckets.get(key) ?? { tokens: cap, last: now };
		b.tokens = Math.min(cap, b.tokens + ((now - b.last) / 1000) * rps);
		b.last = now;
		this.buckets.set(key, b);
		if (b.tokens >= 1) {
			b.tokens -= 1;
			return { ok: true, headers: {} };
		}
		const waitSeconds = (1 - b.tokens) / rps;
		return {
			ok: false,
			retryAfterSeconds: Math.max(0.001, Math.round(waitSeconds * 1000) / 1000),
			headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitSeconds))) },
		};
	}

	private window(key: string, w: { limit: number; seconds: number }): RateVerdict {
		const now = Date.now();
		let state = this.windows.get(key);
		if (!state || now >= state.endsAt) {
			state = { count: 0, endsAt: now + w.seconds * 1000 };
			this.windows.set(key, state);
		}
		if (state.count < w.limit) {
			state.count++;
			return {
				ok: true,
				headers: {
					'X-RateLimit-Limit': String(w.limit),
					'X-RateLimit-Remaining': String(w.limit - state.count),
				},
			};
		}
		const left = Math.max(1, Math.ceil((state.endsAt - now) / 1000));
		return {
			ok: false,
			retryAfterSeconds: left,
			headers: {
				'Retry-After': String(left),
				'X-RateLimit-Reset': String(Math.ceil(state.endsAt / 1000)),
				'X-RateLimit-Limit': String(w.limit),
				'X-RateLimit-Remaining': '0',
			},
		};
	}

	reset(): void {
		this.buckets.clear();
		this.windows.clear();
	}
}

const HTML_502 =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

function chanceOf(rate: number | undefined): boolean {
	return !!rate && rate > 0 && Math.random() < rate;
}

export class EmulatorServer {
	private loopback?: LoopbackServer;
	private readonly limiter = new RateLimiter();

	constructor(private readonly core: Core) {}

	async listen(): Promise<string> {
		const { host, port, basePath } = this.core.opts;
		this.loopback = await startLoopbackServer(
			(req, res) => {
				this.handle(req, res).catch((err) => {
					this.core.log(`internal error: ${err instanceof Error ? err.stack : String(err)}`);
					if (!res.headersSent && !res.destroyed)
						this.writeJson(res, null, 500, { message: 'Server Error' });
				});
			},
			{ host, port },
		);
		this.core.listenOrigin = this.loopback.origin;
		return `${this.core.listenOrigin}${basePath}`;
	}

	async close(): Promise<void> {
		await this.loopback?.close();
	}

	resetRateLimits(): void {
		this.limiter.reset();
	}

	// -------------------------------------------------------------------------------------------

	private writeJson(
		res: ServerResponse,
		record: RecordedRequest | null,
		status: number,
		body: unknown,
		headers: Record<string, string> = {},
		rawText?: string,
	): void {
		const text = rawText ?? JSON.stringify(body);
		this.writeRaw(res, record, status, text, { 'Content-Type': 'application/json', ...headers });
	}

	private writeRaw(
		res: ServerResponse,
		record: RecordedRequest | null,
		status: number,
		text: string,
		headers: Record<string, string>,
	): void {
		if (res.destroyed || res.socket?.destroyed || res.headersSent) {
			if (record && !res.headersSent) record.status = 0;
			return;
		}
		const buf = Buffer.from(text, 'utf8');
		res.writeHead(status, { ...headers, 'Content-Length': String(buf.length) });
		res.end(buf);
		if (record) {
			record.status = status;
			this.core.log(`${record.method} ${record.path} -> ${status}`);
		}
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const core = this.core;
		const url = new URL(req.url ?? '/', 'http://emulator.invalid');
		let pathname = url.pathname.replace(/\/+$/, '') || '/';

		if (pathname === '/_emulator' || pathname.startsWith('/_emulator/')) {
			await this.control(req, res, pathname.slice('/_emulator'.length) || '/');
			return;
		}

		const basePath = core.opts.basePath;
		const inBase = pathname === basePath || pathname.startsWith(`${basePath}/`);
		const relPath = inBase ? pathname.slice(basePath.length) || '/' : pathname;
		if (!inBase) pathname = relPath;
		const query = Object.fromEntries(url.searchParams);
		const method = (req.method ?? 'GET').toUpperCase();
		const record: RecordedRequest = {
			method,
			path: relPath,
			query,
			headers: { ...req.headers },
			body: null,
			status: 0,
			at: Date.now(),
		};
		core.requests.push(record);

		const found = inBase ? findRoute(method, relPath) : null;
		const matched = found && 'route' in found ? found : null;

		// Body (except for routes that stream it themselves).
		let bodyError = false;
		let bodyTooLarge = false;
		if (!matched?.route.rawBody) {
			const { text, tooLarge } = await readBody(req);
			const parsed = parseBody(text, String(req.headers['content-type'] ?? ''));
			record.body = parsed.body;
			bodyError = parsed.error;
			bodyTooLarge = tooLarge;
		}

		const f: EmulatorFaults = core.faults;
		const targeted = !f.faultMethods || f.faultMethods.includes(method);
		const chance = (rate: number | undefined) => targeted && chanceOf(rate);
		if (f.latencyMs > 0) {
			await new Promise<void>((resolve) => core.clock.afterReal(f.latencyMs, resolve));
		}

		// Faults answered instead of processing.
		const drainRaw = () => {
			if (matched?.route.rawBody && !req.readableEnded) req.resume();
		};
		if (chance(f.hangRate)) {
			drainRaw();
			core.log(`${method} ${relPath} -> (hang)`);
			return;
		}
		if (chance(f.resetConnectionRate)) {
			core.log(`${method} ${relPath} -> (reset)`);
			req.socket.destroy();
			return;
		}
		const limited = this.limiter.check(String(req.headers.authorization ?? ''), f);
		if (limited && !limited.ok) {
			const retryAfter = f.retryAfterSeconds ?? limited.retryAfterSeconds;
			const headers = { ...limited.headers };
			if (f.retryAfterSeconds !== undefined)
				headers['Retry-After'] = String(Math.max(0, Math.ceil(retryAfter)));
			drainRaw();
			this.writeJson(
				res,
				record,
				429,
				{ error: 'Rate limit exceeded', retry_after: retryAfter },
				headers,
			);
			return;
		}
		// Laravel's headers go on every answer the limiter let through, whatever its status
		for (const [name, value] of Object.entries(limited?.headers ?? {})) res.setHeader(name, value);
		if (!f.serverErrorAfterProcessing && chance(f.serverErrorRate)) {
			drainRaw();
			this.writeJson(res, record, f.serverErrorStatus, {
				message: STATUS_CODES[f.serverErrorStatus] ?? 'Server Error',
			});
			return;
		}
		if (chance(f.htmlErrorRate)) {
			drainRaw();
			this.writeRaw(res, record, 502, HTML_502, { 'Content-Type': 'text/html' });
			return;
		}

		let reply: Reply;
		if (!found) {
			reply = json(404, { message: 'Not Found' });
		} else if (!matched) {
			const allowed = (found as { allowed: string[] }).allowed;
			reply = json(
				405,
				{
					message: `The ${method} method is not supported for route ${basePath.replace(/^\//, '')}${relPath}. Supported methods: ${allowed.join(', ')}.`,
				},
				{ Allow: allowed.join(', ') },
			);
		} else {
			const authError = this.checkAuth(req);
			if (authError) {
				drainRaw();
				reply = authError;
			} else if (bodyTooLarge) {
				reply = json(413, { message: 'The request body is too large.' });
			} else if (bodyError) {
				reply = json(400, { message: 'The request body is not valid JSON.' });
			} else {
				const ctx: Ctx = {
					core,
					req,
					method,
					path: relPath,
					params: matched.params,
					query,
					body: record.body,
					record,
				};
				try {
					const outcome = await underGateway(core, Promise.resolve(matched.route.handler(ctx)));
					if (outcome.kind === 'timeout') {
						core.log(`${method} ${relPath} -> 524 (gateway timeout; the work goes on)`);
						this.writeRaw(res, record, 524, CLOUDFLARE_524_HTML, {
							'Content-Type': 'text/html; charset=UTF-8',
						});
						return;
					}
					reply = okErrorBody(core, method, outcome.reply);
				} catch (e) {
					if (e instanceof HttpError) reply = json(e.status, e.body, e.headers);
					else {
						core.log(`handler error: ${e instanceof Error ? e.stack : String(e)}`);
						reply = json(500, { message: 'Server Error' });
					}
				}
			}
		}

		// Faults applied after the request took effect.
		const cut =
			reply.kind === 'json' && reply.status < 300 ? cutAfterProcessing(core, method) : null;
		if (cut === 'reset') {
			core.log(`${method} ${relPath} -> (carried out, then reset)`);
			req.socket.destroy();
			return;
		}
		if (cut === 524) {
			core.log(`${method} ${relPath} -> 524 (carried out, answer lost)`);
			this.writeRaw(res, record, 524, CLOUDFLARE_524_HTML, {
				'Content-Type': 'text/html; charset=UTF-8',
			});
			return;
		}
		if (f.serverErrorAfterProcessing && chance(f.serverErrorRate)) {
			if (reply.kind === 'sse') reply.abandon?.();
			this.writeJson(res, record, f.serverErrorStatus, {
				message: STATUS_CODES[f.serverErrorStatus] ?? 'Server Error',
			});
			return;
		}
		if (reply.kind === 'json' && chance(f.malformedJsonRate)) {
			const full = JSON.stringify(reply.body);
			const cut = full.slice(0, Math.max(1, Math.floor(full.length / 2)));
			this.writeJson(res, record, 200, null, {}, cut);
			return;
		}

		if (reply.kind === 'json') this.writeJson(res, record, reply.status, reply.body, reply.headers);
		else if (reply.kind === 'sse') this.startSse(res, record, reply.status, reply.start);
		else if (reply.kind === 'bytes' && !res.headersSent && !res.destroyed) {
			res
				.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) })
				.end(reply.body);
			record.status = reply.status;
		}
	}

	private checkAuth(req: IncomingMessage): JsonReply | null {
		const core = this.core;
		const auth = String(req.headers.authorization ?? '');
		const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
		if (!m || m[1].trim() !== core.opts.apiKey)
			return json(403, { error: 'Invalid authentication' });
		const wsRaw = req.headers['x-workspace-id'];
		const ws = Array.isArray(wsRaw) ? wsRaw[0] : wsRaw;
		if (ws === undefined || ws.trim() === '')
			return json(422, { message: 'The x-workspace-id header is required.' });
		if (ws.trim() !== core.opts.workspaceId)
			return json(422, {
				message: 'The selected workspace is invalid or you do not have access to it.',
			});
		return null;
	}

	private startSse(
		res: ServerResponse,
		record: RecordedRequest,
		status: number,
		start: (sink: SseSink) => void,
	): void {
		const core = this.core;
		if (res.destroyed || res.socket?.destroyed) {
			record.status = 0;
			return;
		}
		const cutAfter = core.faults.cutStreamAfterEvents;
		const silentAfter = core.faults.silentStreamAfterEvents;
		res.writeHead(status, {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache',
			Connection: 'keep-alive',
			'X-Accel-Buffering': 'no',
		});
		res.socket?.setNoDelay(true);
		res.flushHeaders();
		record.status = status;
		core.log(`${record.method} ${record.path} -> ${status} (stream)`);

		let count = 0;
		let closed = false;
		let silent = false;
		let cutting = false;
		const closeCbs: Array<() => void> = [];
		const markClosed = () => {
			if (closed) return;
			closed = true;
			for (const cb of closeCbs.splice(0)) cb();
		};
		res.on('close', markClosed);
		const cut = () => {
			core.log(`${record.method} ${record.path} stream cut after ${count} events`);
			res.socket?.destroy();
			res.destroy();
			markClosed();
		};
		const sink: SseSink = {
			send(data: string): boolean {
				if (closed || silent || cutting) return false;
				count++;
				if (cutAfter !== null && count >= cutAfter) {
					// Cut once this event reached the socket, so the client sees exactly N events.
					cutting = true;
					res.write(`data: ${data}\n\n`, () => cut());
					(record.eventsSentAt ??= []).push(performance.timeOrigin + performance.now());
					return false;
				}
				res.write(`data: ${data}\n\n`);
				(record.eventsSentAt ??= []).push(performance.timeOrigin + performance.now());
				if (silentAfter !== null && count >= silentAfter) silent = true;
				return !closed && !silent;
			},
			end(): void {
				if (closed || silent || cutting) return;
				res.end();
			},
			get closed() {
				return closed;
			},
			onClose(cb: () => void): void {
				if (closed) cb();
				else closeCbs.push(cb);
			},
		};
		if (cutAfter !== null && cutAfter <= 0) cut();
		else if (silentAfter !== null && silentAfter <= 0) silent = true;
		start(sink);
	}

	// -------------------------------------------------------------------------------------------
	// Control API (no auth, no faults, not recorded)

	private async control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
		const core = this.core;
		const method = (req.method ?? 'GET').toUpperCase();
		const { text } = await readBody(req);
		let body: unknown = null;
		if (text) {
			try {
				body = JSON.parse(text);
			} catch {
				this.writeJson(res, null, 400, { message: 'The request body is not valid JSON.' });
				return;
			}
		}
		const send = (status: number, b: unknown) => this.writeJson(res, null, status, b);
		const isObj = (v: unknown): v is Record<string, unknown> =>
			!!v && typeof v === 'object' && !Array.isArray(v);

		if (path === '/health' && method === 'GET') {
			return send(200, {
				ok: true,
				url: `${core.origin()}${core.opts.basePath}`,
				workspaceId: core.opts.workspaceId,
			});
		}
		if (path === '/requests') {
			if (method === 'GET')
				return send(200, { count: core.requests.length, requests: core.requests });
			if (method === 'DELETE') {
				const n = core.requests.length;
				core.requests.length = 0;
				return send(200, { cleared: n });
			}
		}
		if (path === '/faults') {
			if (method === 'GET') return send(200, core.faults);
			if (method === 'PUT' || method === 'PATCH' || method === 'POST') {
				if (!isObj(body)) return send(422, { message: 'Send a JSON object of faults.' });
				core.setFaults(body as Partial<EmulatorFaults>);
				return send(200, core.faults);
			}
			if (method === 'DELETE') {
				core.resetFaults();
				this.limiter.reset();
				return send(200, core.faults);
			}
		}
		const cfg = /^\/agents\/(\d+)\/config$/.exec(path);
		if (cfg && (method === 'POST' || method === 'PUT')) {
			const id = Number(cfg[1]);
			if (!core.state.agents.has(id)) return send(404, { message: 'Agent not found' });
			if (!isObj(body))
				return send(422, {
					message: 'Send a JSON object: {executionSeconds?, fail?, output?, streamEvents?}.',
				});
			const prev = core.agentConfig.get(id) ?? {};
			const next: AgentConfig = { ...prev, ...(body as AgentConfig) };
			core.agentConfig.set(id, next);
			return send(200, { agentId: id, config: next });
		}
		if (path === '/state' && method === 'GET') {
			const s = core.state;
			return send(200, {
				counts: {
					agents: s.agents.size,
					responses: s.responses.size,
					files: s.files.size,
					memories: s.memories.size,
					collections: s.collections.size,
					webhooks: s.webhooks.size,
					resources: s.resources.size,
					requests: core.requests.length,
				},
				executionCount: core.executionCount,
				deliveries: core.deliveries,
				faults: core.faults,
			});
		}
		return send(404, { message: 'Not Found' });
	}
}
