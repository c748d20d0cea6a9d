/**
 * The HTTP server: one request's way through the emulator, each step in a file of its own: the
 * control API under /_emulator (control.ts); the record tests read; the body (routes.ts); the
 * faults a test turned on and the rate limiter (requestFaults.ts, rateLimiter.ts); the route
 * (routes.ts) behind the platform's authentication (auth.ts) and gateway (gateway.ts); the answer
 * written whole (responseWriter.ts) or streamed (sseWriter.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../loopback';
import { control } from './control';
import type { Platform } from './platform';
import { checkAuth } from './auth';
import { CLOUDFLARE_524_HTML, okErrorBody, underGateway } from './gateway';
import { HttpError, json } from './http';
import type { Ctx, JsonReply, Reply } from './http';
import { RateLimiter } from './rateLimiter';
import { RequestFaults, type FaultAnswer } from './requestFaults';
import { writeJson, writeRaw } from './responseWriter';
import { findRoute, parseBody, readBody } from './routes';
import { startSse } from './sseWriter';
import type { RecordedRequest } from './types';

export class EmulatorServer {
	private loopback?: LoopbackServer;
	private readonly limiter = new RateLimiter();

	constructor(private readonly core: Platform) {}

	async listen(): Promise<string> {
		const { host, port, basePath } = this.core.opts;
		this.loopback = await startLoopbackServer(
			(req, res) => {
				this.handle(req, res).catch((err) => {
					this.core.log(`internal error: ${err instanceof Error ? err.stack : String(err)}`);
					if (!res.headersSent && !res.destroyed)
						writeJson(this.core, res, null, 500, { message: 'Server Error' });
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

	/** One request: the control API, or the platform's API with its faults, as the steps below say. */
	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const core = this.core;
		const url = new URL(req.url ?? '/', 'http://emulator.invalid');
		const pathname = url.pathname.replace(/\/+$/, '') || '/';
		if (pathname === '/_emulator' || pathname.startsWith('/_emulator/')) {
			const write = (r: ServerResponse, status: number, body: unknown) =>
				writeJson(core, r, null, status, body);
			await control(
				core,
				this.limiter,
				write,
				req,
				res,
				pathname.slice('/_emulator'.length) || '/',
			);
			return;
		}

		const { record, inBase } = this.recordRequest(req, url, pathname);
		const found = inBase ? findRoute(record.method, record.path) : null;
		const matched = found && 'route' in found ? found : null;
		const body = matched?.route.rawBody ? null : await this.readRequestBody(req, record);

		const faults = new RequestFaults(core, record.method);
		if (faults.f.latencyMs > 0) {
			await new Promise<void>((resolve) => core.clock.afterReal(faults.f.latencyMs, resolve));
		}
		// A route that streams its body itself gets it drained when a fault answers instead.
		const drainRaw = () => {
			if (matched?.route.rawBody && !req.readableEnded) req.resume();
		};
		const limited = this.limiter.check(String(req.headers.authorization ?? ''), faults.f);
		const refused = faults.before(limited);
		if (refused) {
			drainRaw();
			this.writeFault(req, res, record, refused);
			return;
		}
		// Laravel's headers go on every answer the limiter let through, whatever its status
		for (const [name, value] of Object.entries(limited?.headers ?? {})) res.setHeader(name, value);

		let reply: Reply;
		if (!found) reply = json(404, { message: 'Not Found' });
		else if (!matched)
			reply = this.methodNotAllowed(
				record.method,
				record.path,
				(found as { allowed: string[] }).allowed,
			);
		else {
			const authError = checkAuth(core.opts, req, matched.route.memberOnly);
			if (authError) {
				drainRaw();
				reply = authError;
			} else if (body && !body.ok) {
				reply = body.refusal;
			} else {
				const ctx: Ctx = {
					core,
					req,
					method: record.method,
					path: record.path,
					params: matched.params,
					query: record.query,
					body: record.body,
					record,
				};
				const handled = await this.runHandler(ctx, matched.route.handler);
				if (!handled) {
					core.log(`${record.method} ${record.path} -> 524 (gateway timeout; the work goes on)`);
					writeRaw(core, res, record, 524, CLOUDFLARE_524_HTML, {
						'Content-Type': 'text/html; charset=UTF-8',
					});
					return;
				}
				reply = handled;
			}
		}

		const lost = faults.after(reply);
		if (lost) this.writeFault(req, res, record, lost);
		else this.writeReply(res, record, reply);
	}

	/** The request as the record tests read, its path relative to the base path. */
	private recordRequest(
		req: IncomingMessage,
		url: URL,
		pathname: string,
	): { record: RecordedRequest; inBase: boolean } {
		const basePath = this.core.opts.basePath;
		const inBase = pathname === basePath || pathname.startsWith(`${basePath}/`);
		const record: RecordedRequest = {
			method: (req.method ?? 'GET').toUpperCase(),
			path: inBase ? pathname.slice(basePath.length) || '/' : pathname,
			query: Object.fromEntries(url.searchParams),
			headers: { ...req.headers },
			body: null,
			status: 0,
			at: Date.now(),
		};
		this.core.requests.push(record);
		return { record, inBase };
	}

	/** The body read and parsed into the record; a refusal when it is too large or not JSON. */
	private async readRequestBody(
		req: IncomingMessage,
		record: RecordedRequest,
	): Promise<{ ok: true } | { ok: false; refusal: JsonReply }> {
		const { text, tooLarge } = await readBody(req);
		const parsed = parseBody(text, String(req.headers['content-type'] ?? ''));
		record.body = parsed.body;
		if (tooLarge)
			return { ok: false, refusal: json(413, { message: 'The request body is too large.' }) };
		if (parsed.error)
			return { ok: false, refusal: json(400, { message: 'The request body is not valid JSON.' }) };
		return { ok: true };
	}

	private methodNotAllowed(method: string, path: string, allowed: string[]): JsonReply {
		const route = `${this.core.opts.basePath.replace(/^\//, '')}${path}`;
		return json(
			405,
			{
				message: `The ${method} method is not supported for route ${route}. Supported methods: ${allowed.join(', ')}.`,
			},
			{ Allow: allowed.join(', ') },
		);
	}

	/** The handler's reply (errors as the platform words them), or null when the gateway timed out. */
	private async runHandler(
		ctx: Ctx,
		handler: (ctx: Ctx) => Reply | Promise<Reply>,
	): Promise<Reply | null> {
		const core = this.core;
		try {
			const outcome = await underGateway(core, Promise.resolve(handler(ctx)));
			if (outcome.kind === 'timeout') return null;
			return okErrorBody(core, ctx.method, outcome.reply);
		} catch (e) {
			if (e instanceof HttpError) return json(e.status, e.body, e.headers);
			core.log(`handler error: ${e instanceof Error ? e.stack : String(e)}`);
			return json(500, { message: 'Server Error' });
		}
	}

	private writeFault(
		req: IncomingMessage,
		res: ServerResponse,
		record: RecordedRequest,
		fault: FaultAnswer,
	): void {
		const core = this.core;
		if (fault.kind === 'hang') core.log(`${record.method} ${record.path} -> (hang)`);
		else if (fault.kind === 'reset') {
			core.log(`${record.method} ${record.path} -> (${fault.note})`);
			req.socket.destroy();
		} else if (fault.kind === 'json') {
			writeJson(core, res, record, fault.status, fault.body, fault.headers);
		} else if (fault.kind === 'malformed') {
			writeJson(core, res, record, 200, null, {}, fault.text);
		} else {
			if (fault.note) core.log(`${record.method} ${record.path} -> ${fault.note}`);
			writeRaw(core, res, record, fault.status, fault.text, fault.headers);
		}
	}

	private writeReply(res: ServerResponse, record: RecordedRequest, reply: Reply): void {
		const core = this.core;
		if (reply.kind === 'json')
			writeJson(core, res, record, reply.status, reply.body, reply.headers);
		else if (reply.kind === 'sse') startSse(core, res, record, reply.status, reply.start);
		else if (reply.kind === 'bytes' && !res.headersSent && !res.destroyed) {
			res
				.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) })
				.end(reply.body);
			record.status = reply.status;
		}
	}
}
