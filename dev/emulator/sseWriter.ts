/**
 * A streamed answer (Server-Sent Events) written to the socket, with the stream faults a test can
 * turn on: a stream cut after N events, or one that goes silent after N events.
 */
import type { ServerResponse } from 'node:http';

import type { SseSink } from './http';
import type { EmulatorServices } from './services';
import type { RecordedRequest } from './types';

export function startSse(
	core: EmulatorServices,
	res: ServerResponse,
	record: RecordedRequest,
	status: number,
	start: (sink: SseSink) => void,
): void {
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
