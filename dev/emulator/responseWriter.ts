/** Writing a whole answer to the socket and recording its status (0: the client was gone). */
import type { ServerResponse } from 'node:http';

import type { EmulatorServices } from './services';
import type { RecordedRequest } from './types';

export function writeRaw(
	core: EmulatorServices,
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
	const cut = status >= 400 ? core.faults.errorBodyCut : null;
	if (cut) {
		// the headers and half the body, then nothing more: the client is left with a broken body
		res.write(buf.subarray(0, Math.floor(buf.length / 2)));
		if (cut === 'reset') core.clock.afterReal(20, () => res.socket?.destroy());
	} else res.end(buf);
	if (record) {
		record.status = status;
		core.log(`${record.method} ${record.path} -> ${status}`);
	}
}

/** A JSON answer; `rawText` replaces the serialised body (a malformed answer). */
export function writeJson(
	core: EmulatorServices,
	res: ServerResponse,
	record: RecordedRequest | null,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
	rawText?: string,
): void {
	const text = rawText ?? JSON.stringify(body);
	writeRaw(core, res, record, status, text, { 'Content-Type': 'application/json', ...headers });
}
