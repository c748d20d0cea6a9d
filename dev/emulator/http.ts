/**
 * Shared HTTP plumbing of the section handlers: the request context, replies, errors in the
 * platform's shapes, query parsing, and the Laravel pagination envelope.
 */
import type { IncomingMessage } from 'node:http';
import type { ExecutionEngine } from './runEngine';
import type { EmulatorServices } from './services';
import type { RecordedRequest } from './types';

export interface JsonReply {
	kind: 'json';
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** Writes `data: <json>` events; applies the stream faults (cut / silent) itself. */
export interface SseSink {
	/** Sends one event; returns false when the stream is closed (cut, silent or client gone). */
	send(data: string): boolean;
	end(): void;
	/** True once the client went away or the stream was cut. */
	readonly closed: boolean;
	onClose(cb: () => void): void;
}

export interface SseReply {
	kind: 'sse';
	status: number;
	start(sink: SseSink): void;
	/** Called instead of start() when the stream is never started (e.g. a fault answered instead). */
	abandon?(): void;
}

/** The handler already answered on the raw response (used by the multipart upload). */
export interface HandledReply {
	kind: 'handled';
}

/** Raw bytes (a generated file). */
export interface BytesReply {
	kind: 'bytes';
	status: number;
	body: Buffer;
	headers: Record<string, string>;
}

export type Reply = JsonReply | SseReply | HandledReply | BytesReply;

/** What a handler reaches through its context: the services, and the run engine to start runs. */
export type HandlerCore = EmulatorServices & { readonly engine: ExecutionEngine };

export interface Ctx {
	core: HandlerCore;
	req: IncomingMessage;
	method: string;
	/** Path relative to basePath. */
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	/** Parsed body (JSON/urlencoded object, raw text, or null). Not read for multipart routes. */
	body: unknown;
	record: RecordedRequest;
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers?: Record<string, string>,
	) {
		super(
			typeof body === 'object' && body && 'message' in body
				? String((body as { message: unknown }).message)
				: `HTTP ${status}`,
		);
	}
}

export function json(status: number, body: unknown, headers?: Record<string, string>): JsonReply {
	return { kind: 'json', status, body, headers };
}

export function notFound(message: string): HttpError {
	return new HttpError(404, { message });
}

/** Laravel validation error: 422 {message, errors:{field:[message]}}. */
export function validation(field: string, message: string): HttpError {
	return new HttpError(422, { message, errors: { [field]: [message] } });
}

/** Laravel's display form of a field name: `per_page` → `per page`, `file_ids.0` stays. */
export function label(field: string): string {
	return field.includes('.') ? field : field.replace(/_/g, ' ');
}

export function required(field: string): HttpError {
	return validation(field, `The ${label(field)} field is required.`);
}

export function bodyObject(ctx: Ctx): Record<string, unknown> {
	const b = ctx.body;
	if (b && typeof b === 'object' && !Array.isArray(b)) return b as Record<string, unknown>;
	return {};
}

export function isPresent(v: unknown): boolean {
	if (v === undefined || v === null) return false;
	if (typeof v === 'string' && v.trim() === '') return false;
	if (Array.isArray(v) && v.length === 0) return false;
	return true;
}

export function truthy(v: unknown): boolean {
	return v === true || v === 1 || v === '1' || v === 'true' || v === 'on' || v === 'yes';
}

export function isIntString(v: string): boolean {
	return /^-?\d+$/.test(v.trim());
}

/** Lenient integer parse used by the Laravel paginator: anything not a positive int → fallback. */
export function lenientPositiveInt(v: string | undefined, fallback: number): number {
	if (v === undefined || !isIntString(v)) return fallback;
	const n = parseInt(v, 10);
	return n >= 1 ? n : fallback;
}

/**
 * per_page of the lists whose maximum is not documented (agents, webhooks, resources, agent
 * responses): default 15, a larger ask capped at the emulator's maxPerPage (the envelope then says
 * what was used), or refused with a 422 when strictPerPage is set (a platform that validates it).
 */
export function listPerPage(ctx: Ctx): number {
	const { maxPerPage, strictPerPage } = ctx.core.opts;
	if (strictPerPage) return strictInt(ctx.query, 'per_page', 15, 1, maxPerPage);
	return Math.min(maxPerPage, lenientPositiveInt(ctx.query.per_page, 15));
}

/** Strict integer query validation (files, memories, collections): 422 when outside min..max. */
export function strictInt(
	query: Record<string, string>,
	field: string,
	fallback: number,
	min: number,
	max?: number,
): number {
	const raw = query[field];
	if (raw === undefined || raw === '') return fallback;
	if (!isIntString(raw)) throw validation(field, `The ${label(field)} field must be an integer.`);
	const n = parseInt(raw, 10);
	if (max !== undefined && (n < min || n > max)) {
		throw validation(field, `The ${label(field)} field must be between ${min} and ${max}.`);
	}
	if (n < min) throw validation(field, `The ${label(field)} field must be at least ${min}.`);
	return n;
}

export function parseId(raw: string): number | null {
	if (!/^\d+$/.test(raw)) return null;
	const n = Number(raw);
	return Number.isSafeInteger(n) ? n : null;
}

/** `http://host:port` as the client addressed us (Host header), for URLs in envelopes. */
export function origin(ctx: Ctx): string {
	const host = ctx.req.headers.host;
	return host ? `http://${host}` : ctx.core.origin();
}

export interface LaravelPage<T> {
	current_page: number;
	data: T[];
	first_page_url: string;
	from: number | null;
	last_page: number;
	last_page_url: string;
	links: Array<{ url: string | null; label: string; active: boolean }>;
	next_page_url: string | null;
	path: string;
	per_page: number;
	prev_page_url: string | null;
	to: number | null;
	total: number;
}

/**
 * Laravel LengthAwarePaginator::toArray() with withQueryString(): URLs keep the other query
 * parameters and put `page` last; `links` use Laravel's UrlWindow (onEachSide 3).
 */
export function laravelPage<T>(
	ctx: Ctx,
	items: T[],
	page: number,
	perPage: number,
): LaravelPage<T> {
	const total = items.length;
	const lastPage = Math.max(1, Math.ceil(total / perPage));
	const start = (page - 1) * perPage;
	const data = items.slice(start, start + perPage);
	const path = `${origin(ctx)}${ctx.core.basePath}${ctx.path}`;
	const rest = Object.entries(ctx.query).filter(([k]) => k !== 'page');
	const url = (p: number): string => {
		const qs = new URLSearchParams(rest);
		qs.set('page', String(p));
		return `${path}?${qs.toString()}`;
	};
	const from = data.length > 0 ? start + 1 : null;
	const to = data.length > 0 ? start + data.length : null;
	const prev = page > 1 ? url(page - 1) : null;
	const next = page < lastPage ? url(page + 1) : null;

	const links: LaravelPage<T>['links'] = [{ url: prev, label: '&laquo; Previous', active: false }];
	for (const el of urlWindow(page, lastPage)) {
		if (el === '...') links.push({ url: null, label: '...', active: false });
		else links.push({ url: url(el), label: String(el), active: el === page });
	}
	links.push({ url: next, label: 'Next &raquo;', active: false });

	return {
		current_page: page,
		data,
		first_page_url: url(1),
		from,
		last_page: lastPage,
		last_page_url: url(lastPage),
		links,
		next_page_url: next,
		path,
		per_page: perPage,
		prev_page_url: prev,
		to,
		total,
	};
}

function range(a: number, b: number): number[] {
	const out: number[] = [];
	for (let i = a; i <= b; i++) out.push(i);
	return out;
}

/** Laravel's UrlWindow with onEachSide = 3. */
export function urlWindow(current: number, last: number): Array<number | '...'> {
	const onEachSide = 3;
	if (last < onEachSide * 2 + 8) return range(1, last);
	const window = onEachSide + 4;
	if (current <= window) return [...range(1, window + onEachSide), '...', ...range(last - 1, last)];
	if (current > last - window)
		return [...range(1, 2), '...', ...range(last - (window + (onEachSide - 1)), last)];
	return [
		...range(1, 2),
		'...',
		...range(current - onEachSide, current + onEachSide),
		'...',
		...range(last - 1, last),
	];
}

/** Simple page slice + meta used by memories/collections/resources. */
export function slicePage<T>(
	items: T[],
	page: number,
	perPage: number,
): { data: T[]; lastPage: number; from: number | null; to: number | null } {
	const lastPage = Math.max(1, Math.ceil(items.length / perPage));
	const start = (page - 1) * perPage;
	const data = items.slice(start, start + perPage);
	return {
		data,
		lastPage,
		from: data.length ? start + 1 : null,
		to: data.length ? start + data.length : null,
	};
}

export function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
	const out = {} as Pick<T, K>;
	for (const k of keys) out[k] = obj[k];
	return out;
}

export function matchesQ(
	q: string | undefined,
	...texts: Array<string | null | undefined>
): boolean {
	if (!q) return true;
	const needle = q.toLowerCase();
	return texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle));
}
