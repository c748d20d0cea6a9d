/**
 * The storage host of production's signed-URL uploads (docs/platform-assumptions.md), on a
 * second port of its own, like a cloud bucket beside the API:
 *
 *   PUT /upload/<object path>?expires=…&signature=…   the bytes of a file signed by
 *       POST /v2/files/sign (signedUploads.ts); streamed through sha256, never buffered whole.
 *       Refused: a bad or expired signature (403), an Authorization or x-workspace-id header (400:
 *       the API key must never reach the storage host), a Content-Type other than the signed one.
 *   GET /generated/<response id>/<name>   what an image or video agent produced (media.ts).
 *       Refuses an Authorization header too.
 *
 * Every request is recorded in core.storageRequests, with its headers, size and sha256.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../loopback';

import type { EmulatorServices, StorageHost } from './services';
import { mediaFor } from './media';
import type { StorageRequest, StoredObject } from './types';

/** Content of stored objects up to this size is kept in memory (for tests). */
const KEEP_CONTENT_BYTES = 1024 * 1024;
/** How long a signed URL stays valid, in real milliseconds. */
export const SIGNED_URL_TTL_MS = 15 * 60_000;

export class StorageServer implements StorageHost {
	private loopback?: LoopbackServer;
	readonly objects = new Map<string, StoredObject>();
	readonly requests: StorageRequest[] = [];
	private readonly secret = randomBytes(32);
	origin = '';

	constructor(private readonly core: EmulatorServices) {}

	async listen(host: string, port: number): Promise<string> {
		this.loopback = await startLoopbackServer(
			(req, res) => {
				this.handle(req, res).catch((err) => {
					this.core.log(`storage error: ${err instanceof Error ? err.stack : String(err)}`);
					if (!res.headersSent) this.send(res, null, 500, { message: 'Storage error' });
				});
			},
			{ host, port },
		);
		this.origin = this.loopback.origin;
		return this.origin;
	}

	async close(): Promise<void> {
		await this.loopback?.close();
	}

	private signature(path: string, expires: number, contentType: string): string {
		return createHmac('sha256', this.secret)
			.update(`PUT\n${path}\n${expires}\n${contentType}`)
			.digest('hex');
	}

	/** A URL that lets one PUT of `path` with this Content-Type, for SIGNED_URL_TTL_MS. */
	sign(path: string, contentType: string): { url: string; expiresAt: number } {
		const expiresAt = Date.now() + SIGNED_URL_TTL_MS;
		const query = new URLSearchParams({
			expires: String(expiresAt),
			signature: this.signature(path, expiresAt, contentType),
		});
		return {
			url: `${this.origin}/upload/${path.split('/').map(encodeURIComponent).join('/')}?${query}`,
			expiresAt,
		};
	}

	/** The URL a generated file of a run is downloaded from. */
	generatedUrl(responseId: number, name: string): string {
		return `${this.origin}/generated/${responseId}/${encodeURIComponent(name)}`;
	}

	private send(
		res: ServerResponse,
		record: StorageRequest | null,
		status: number,
		body: unknown,
		headers: Record<string, string> = {},
	): void {
		if (record) record.status = status;
		if (res.headersSent || res.destroyed) return;
		const buf = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
		res.writeHead(status, {
			'Content-Type': 'application/json',
			...headers,
			'Content-Length': String(buf.length),
		});
		res.end(buf);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://storage.invalid');
		const method = (req.method ?? 'GET').toUpperCase();
		const record: StorageRequest = {
			method,
			path: url.pathname,
			headers: { ...req.headers },
			status: 0,
			bytes: 0,
			sha256: '',
			at: Date.now(),
		};
		this.requests.push(record);
		// The body is read to its end before a refusal, so the client sees the answer rather than a
		// connection closed under the bytes it is still sending.
		const refuse = async (status: number, message: string) => {
			if (!req.readableEnded) {
				await new Promise<void>((resolve) => {
					req.on('end', resolve);
					req.on('error', () => resolve());
					req.on('aborted', () => resolve());
					req.resume();
				});
			}
			this.send(res, record, status, { error: message });
		};
		if (req.headers.authorization !== undefined) {
			return await refuse(
				400,
				'Authorization header is not allowed on a signed URL: the signature is the authorization.',
			);
		}
		if (req.headers['x-workspace-id'] !== undefined) {
			return await refuse(400, 'x-workspace-id is not a header of the storage host.');
		}

		const generated = /^\/generated\/(\d+)\/([^/]+)$/.exec(url.pathname);
		if (generated && method === 'GET') {
			const response = this.core.state.runs.get(Number(generated[1]));
			const agent = response ? this.core.state.agents.get(response.template_id) : undefined;
			const media = agent ? mediaFor(agent.type) : undefined;
			if (
				!response ||
				response.status !== 'succeeded' ||
				!media ||
				decodeURIComponent(generated[2]) !== media.name
			) {
				return await refuse(404, 'No such object.');
			}
			record.bytes = media.bytes.length;
			record.sha256 = media.sha256;
			return this.send(res, record, 200, media.bytes, { 'Content-Type': media.mimeType });
		}

		const upload = /^\/upload\/(.+)$/.exec(url.pathname);
		if (!upload || method !== 'PUT') return await refuse(404, 'No such object.');
		const path = upload[1].split('/').map(decodeURIComponent).join('/');
		const expires = Number(url.searchParams.get('expires'));
		const given = Buffer.from(String(url.searchParams.get('signature') ?? ''), 'utf8');
		const contentType = String(req.headers['content-type'] ?? '');
		const wanted = Buffer.from(this.signature(path, expires, contentType), 'utf8');
		if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
			return await refuse(
				403,
				'SignatureDoesNotMatch: the signature, the object path or the Content-Type differs from what was signed.',
			);
		}
		if (!Number.isFinite(expires) || Date.now() > expires)
			return await refuse(403, 'The signed URL has expired.');

		const hash = createHash('sha256');
		let bytes = 0;
		let chunks: Buffer[] | null = [];
		await new Promise<void>((resolve) => {
			req.on('data', (chunk: Buffer) => {
				hash.update(chunk);
				bytes += chunk.length;
				if (chunks) {
					if (bytes <= KEEP_CONTENT_BYTES) chunks.push(chunk);
					else chunks = null;
				}
			});
			req.on('end', () => resolve());
			req.on('error', () => resolve());
			req.on('aborted', () => resolve());
		});
		if (!req.complete) {
			record.status = 0;
			return;
		}
		record.bytes = bytes;
		record.sha256 = hash.digest('hex');
		this.objects.set(path, {
			path,
			contentType,
			bytes,
			sha256: record.sha256,
			content: chunks ? Buffer.concat(chunks) : null,
		});
		this.core.log(`storage PUT ${path} (${bytes} bytes) -> 200`);
		this.send(res, record, 200, Buffer.alloc(0), { ETag: `"${record.sha256.slice(0, 32)}"` });
	}
}
