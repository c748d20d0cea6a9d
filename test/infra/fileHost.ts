/**
 * A host other than the platform (a second port), as a storage or CDN host would be, for the tests
 * of "Download Generated Files": it serves its files to anyone and records the headers it received
 * (to prove that no API key reached it). With a sample PNG and the sha256 the tests compare.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';

import { startLoopbackServer, type LoopbackServer } from '../../dev/loopback';
import type { ServedFile } from '../../dev/emulator/generatedFiles';

/** A real 4×4 RGB PNG (98 bytes). */
export const SAMPLE_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAKUlEQVR4nA3HMQEAAAzCMIRVGGdFIXDLlyQSGxcTBIvjU6mt62cyOzcPp2MTQTYdST8AAAAASUVORK5CYII=',
	'base64',
);

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

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
