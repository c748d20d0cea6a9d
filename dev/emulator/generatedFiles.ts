/**
 * Generated files (what image and video agents produce), for the tests of "Download Generated
 * Files": a sample PNG, a route on the platform's own origin that serves registered files to
 * authenticated callers (`GET /generated-files/:name`), and a separate file host on a second
 * port, as a storage or CDN host would be, that serves files to anyone and records the headers
 * it received (to prove that no API key reached it).
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../loopback';

import type { EmulatorServices } from './services';
import { notFound } from './http';
import type { Ctx, Reply } from './http';

/** A real 4×4 RGB PNG (98 bytes). */
export const SAMPLE_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAKUlEQVR4nA3HMQEAAAzCMIRVGGdFIXDLlyQSGxcTBIvjU6mt62cyOzcPp2MTQTYdST8AAAAASUVORK5CYII=',
	'base64',
);

export interface ServedFile {
	body: Buffer;
	contentType: string;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const onPlatform = new WeakMap<EmulatorServices, Map<string, ServedFile>>();

/** Files served at `/generated-files/:name` on the emulator's own origin (authenticated). */
export function platformFiles(core: EmulatorServices): Map<string, ServedFile> {
	let files = onPlatform.get(core);
	if (!files) onPlatform.set(core, (files = new Map()));
	return files;
}

export function serveGeneratedFile(ctx: Ctx): Reply {
	const file = platformFiles(ctx.core).get(ctx.params.name);
	if (!file) throw notFound('File not found');
	return {
		kind: 'bytes',
		status: 200,
		body: file.body,
		headers: { 'Content-Type': file.contentType },
	};
}

export interface FileHostHit {
	path: string;
	headers: http.IncomingHttpHeaders;
}

/** Another host (a second port): serves its files to anyone, records every request's headers. */
export class FileHost {
	readonly files = new Map<string, ServedFile>();
	readonly hits: FileHostHit[] = [];
	private loopback?: LoopbackServer;
	url = '';

	async start(host = '127.0.0.1'): Promise<string> {
		this.loopback = await startLoopbackServer(
			(req, res) => {
				const path = new URL(req.url ?? '/', 'http://host.invalid').pathname;
				this.hits.push({ path, headers: { ...req.headers } });
				const file = this.files.get(path.replace(/^\/+/, ''));
				if (!file) {
					res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
					return;
				}
				res
					.writeHead(200, {
						'Content-Type': file.contentType,
						'Content-Length': String(file.body.length),
					})
					.end(file.body);
			},
			{ host },
		);
		this.url = this.loopback.origin;
		return this.url;
	}

	async stop(): Promise<void> {
		await this.loopback?.close();
	}
}
