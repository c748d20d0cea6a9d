/**
 * The HTTP server: auth (bearer key + x-workspace-id), fault injection, the rate limiter, recording
 * of every request and SSE plumbing; the routes are in routes.ts, the control API under
 * /_emulator in control.ts.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../loopback';
import { control } from './control';
import type { Core } from './core';
import { CLOUDFLARE_524_HTML, cutAfterProcessing, okErrorBody, underGateway } from './gateway';
import { HttpError, json } from './http';
import type { Ctx, JsonReply, Reply, SseSink } from './http';
import { RateLimiter } from './rateLimiter';
import { findRoute, parseBody, readBody } from './routes';
import type { EmulatorFaults, RecordedRequest } from './types';

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
			await control(
				this.core,
				this.limiter,
				(r, status, body) => this.writeJson(r, null, status, body),
				req,
				res,
				pathname.slice('/_emulator'.length) || '/',
			);
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
}
