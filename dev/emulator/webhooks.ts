/**
 * Webhooks: GET /agents/{id}/webhooks, GET /webhooks, POST /agents/{id}/webhooks,
 * DELETE /webhooks/{id}, and deliveries (project decision 2): when an execution of an agent
 * finishes, its final Agent response is sent as JSON to every active webhook of the agent.
 */
import http from 'node:http';
import https from 'node:https';
import type { EmulatorServices } from './services';
import { responseJson } from './runEngine';
import {
	HttpError,
	bodyObject,
	json,
	laravelPage,
	lenientPositiveInt,
	listPerPage,
	notFound,
	parseId,
} from './http';
import type { Ctx, Reply } from './http';
import { USER_ID } from './types';
import type { StoredRun, StoredWebhook } from './types';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_USER_AGENT = 'AgentPlatform-Webhooks/1.0';

function listJson(w: StoredWebhook) {
	return {
		id: w.id,
		template_id: w.template_id,
		user_id: w.user_id,
		url: w.url,
		method: w.method,
		success_count: w.success_count,
		failure_count: w.failure_count,
		status: w.status,
		created_at: w.created_at,
		updated_at: w.updated_at,
		deleted_at: w.deleted_at,
	};
}

function createdJson(w: StoredWebhook) {
	return {
		id: w.id,
		template_id: w.template_id,
		user_id: w.user_id,
		url: w.url,
		method: w.method,
		status: w.status,
		created_at: w.created_at,
		updated_at: w.updated_at,
	};
}

function perPage(ctx: Ctx): number {
	return listPerPage(ctx);
}

export function listAgentWebhooks(ctx: Ctx): Reply {
	const id = parseId(ctx.params.id);
	if (id === null || !ctx.core.state.agents.has(id)) throw notFound('Agent not found');
	const items = [...ctx.core.state.webhooks.values()]
		.filter((w) => w.template_id === id && w.deleted_at === null)
		.map(listJson);
	return json(200, laravelPage(ctx, items, lenientPositiveInt(ctx.query.page, 1), perPage(ctx)));
}

export function listWebhooks(ctx: Ctx): Reply {
	const items = [...ctx.core.state.webhooks.values()]
		.filter((w) => w.deleted_at === null)
		.map(listJson);
	return json(200, laravelPage(ctx, items, lenientPositiveInt(ctx.query.page, 1), perPage(ctx)));
}

function validUrl(s: string): URL | null {
	try {
		const u = new URL(s);
		if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return null;
		return u;
	} catch {
		return null;
	}
}

export function createWebhook(ctx: Ctx): Reply {
	const core = ctx.core;
	const agentId = parseId(ctx.params.id);
	if (agentId === null || !core.state.agents.has(agentId)) throw notFound('Agent not found');
	const body = bodyObject(ctx);
	const messages: Record<string, string[]> = {};
	const add = (field: string, msg: string) => (messages[field] ??= []).push(msg);

	const url = body.url;
	if (url === undefined || url === null || url === '') add('url', 'The url field is required.');
	else if (typeof url !== 'string') add('url', 'The url field must be a string.');
	else if (!validUrl(url)) add('url', 'The url field must be a valid URL.');
	else if (core.opts.requireHttpsWebhooks && !url.startsWith('https://'))
		add('url', 'The url field must start with https://.');

	const method = body.method;
	if (method === undefined || method === null || method === '')
		add('method', 'The method field is required.');
	else if (method !== 'POST' && method !== 'GET') add('method', 'The selected method is invalid.');

	const status = body.status;
	if (status !== undefined && status !== null && status !== 'active' && status !== 'inactive') {
		add('status', 'The selected status is invalid.');
	}

	if (Object.keys(messages).length > 0)
		throw new HttpError(400, { error: 'Validation failed', messages });

	const now = core.clock.isoMicro();
	const w: StoredWebhook = {
		id: core.nextId('webhook'),
		template_id: agentId,
		user_id: USER_ID,
		url: url as string,
		method: method as 'POST' | 'GET',
		success_count: 0,
		failure_count: 0,
		status: (status as 'active' | 'inactive' | undefined) ?? 'active',
		created_at: now,
		updated_at: now,
		deleted_at: null,
	};
	core.state.webhooks.set(w.id, w);
	return json(201, createdJson(w));
}

export function deleteWebhook(ctx: Ctx): Reply {
	const id = parseId(ctx.params.id);
	const w = id === null ? undefined : ctx.core.state.webhooks.get(id);
	if (!w) throw notFound('Webhook not found');
	ctx.core.state.webhooks.delete(w.id);
	return json(200, { message: 'Webhook deleted' });
}

/** Sends deliveries; never throws, aborts everything in flight on stop(). */
export class WebhookDispatcher {
	private readonly inFlight = new Set<http.ClientRequest>();

	constructor(private readonly core: EmulatorServices) {}

	deliverFor(record: StoredRun): void {
		if (this.core.stopped) return;
		const hooks = [...this.core.state.webhooks.values()].filter(
			(w) => w.template_id === record.template_id && w.status === 'active' && w.deleted_at === null,
		);
		const payload = responseJson(record);
		for (const w of hooks) this.deliver(w, payload);
	}

	private deliver(w: StoredWebhook, payload: unknown): void {
		const core = this.core;
		const at = Date.now();
		let done = false;
		const finish = (status: number) => {
			if (done) return;
			done = true;
			if (status >= 200 && status < 300) w.success_count++;
			else w.failure_count++;
			core.deliveries.push({ webhookId: w.id, url: w.url, status, body: payload, at });
			core.log(`delivery webhook ${w.id} ${w.method} ${w.url} -> ${status || 'network error'}`);
		};
		try {
			const u = new URL(w.url);
			const lib = u.protocol === 'https:' ? https : http;
			const data = w.method === 'GET' ? null : Buffer.from(JSON.stringify(payload));
			const headers: Record<string, string | number> = {
				'User-Agent': DELIVERY_USER_AGENT,
				Accept: '*/*',
			};
			if (data) {
				headers['Content-Type'] = 'application/json';
				headers['Content-Length'] = data.length;
			}
			const req = lib.request(u, {
				method: w.method,
				headers,
				agent: false,
				timeout: DELIVERY_TIMEOUT_MS,
			});
			this.inFlight.add(req);
			const timer = setTimeout(
				() => req.destroy(new Error('delivery timeout')),
				DELIVERY_TIMEOUT_MS,
			);
			timer.unref();
			req.on('response', (res) => {
				res.resume();
				res.on('end', () => undefined);
				clearTimeout(timer);
				this.inFlight.delete(req);
				finish(res.statusCode ?? 0);
			});
			req.on('timeout', () => req.destroy(new Error('delivery timeout')));
			req.on('error', () => {
				clearTimeout(timer);
				this.inFlight.delete(req);
				if (!core.stopped) finish(0);
			});
			req.on('close', () => {
				clearTimeout(timer);
				this.inFlight.delete(req);
			});
			req.end(data ?? undefined);
		} catch {
			finish(0);
		}
	}

	stop(): void {
		for (const r of this.inFlight) r.destroy();
		this.inFlight.clear();
	}
}
