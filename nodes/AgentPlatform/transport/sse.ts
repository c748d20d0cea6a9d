import type { EventSourceMessage } from 'eventsource-parser';
import { createParser } from 'eventsource-parser';
import type { INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { PlatformContext } from './types';
import { cancelSignal, EXECUTION_CANCELED } from './cancellation';

export type ServerSentEvent = EventSourceMessage;

export interface SseReadOptions {
	/** The stream counts as broken when no byte arrives for this long. */
	idleTimeoutMs: number;
}

/** Which limit ended a stream early: no byte for the idle timeout, or the request's whole timeout. */
export type StreamInterruption = 'idle' | 'deadline' | 'broken' | 'cancelled';

/** When each streamed body must have ended (the request's timeout from its send): set by request.ts. */
const deadlines = new WeakMap<object, { at: number; timeoutMs: number }>();

/** The streamed body must end by `at` (Date.now() time), the request's timeout of `timeoutMs` after its send. */
export function limitStream(body: unknown, at: number, timeoutMs: number): void {
	if (body !== null && typeof body === 'object') deadlines.set(body, { at, timeoutMs });
}

/** The error of a stream that broke, went quiet or was cancelled; callers may fall back to polling. */
export function streamInterrupted(
	node: INode,
	reason: StreamInterruption,
	message: string,
): NodeOperationError {
	const error = new NodeOperationError(node, message);
	error.context.streamInterruption = reason;
	return error;
}

export function streamInterruptionOf(error: unknown): StreamInterruption | undefined {
	const context = (error as { context?: Record<string, unknown> } | undefined)?.context;
	return context?.streamInterruption as StreamInterruption | undefined;
}

const IDLE = Symbol('idle');
const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * The one Server-Sent-Events reader: yields each parsed event of a streamed response body
 * (an async iterable of chunks, as n8n's `encoding: 'stream'` gives in 1.x and 2.x) as soon as
 * it is complete. Characters split across chunks are decoded whole; CRLF, comments and
 * `retry:` fields are handled by eventsource-parser.
 */
export async function* readServerSentEvents(
	ctx: PlatformContext,
	body: AsyncIterable<Uint8Array | string>,
	options: SseReadOptions,
): AsyncGenerator<ServerSentEvent> {
	const ready: ServerSentEvent[] = [];
	const parser = createParser({ onEvent: (event) => ready.push(event) });
	const decoder = new TextDecoder();
	const iterator = body[Symbol.asyncIterator]();
	const signal = cancelSignal(ctx);
	const node = ctx.getNode();
	const deadline = deadlines.get(body);
	let lastByteAt = Date.now();
	let reading = true;

	// No timers in community nodes: a watchdog loop of short sleeps notices a silent stream.
	let wakeIdle: (value: typeof IDLE) => void = () => undefined;
	const idle = new Promise<typeof IDLE>((resolve) => (wakeIdle = resolve));
	const watchdog = (async () => {
		const step = Math.max(10, Math.min(100, options.idleTimeoutMs / 4));
		while (reading) {
			await sleep(step);
			const now = Date.now();
			if (
				signal?.aborted ||
				now - lastByteAt > options.idleTimeoutMs ||
				now >= (deadline?.at ?? Infinity)
			)
				wakeIdle(IDLE);
		}
	})();

	try {
		for (;;) {
			let next: IteratorResult<Uint8Array | string> | typeof IDLE;
			try {
				next = await Promise.race([iterator.next(), idle]);
			} catch (error) {
				if (signal?.aborted) throw streamInterrupted(node, 'cancelled', EXECUTION_CANCELED);
				throw streamInterrupted(
					node,
					'broken',
					`The stream broke: ${(error as Error).message ?? error}`,
				);
			}
			if (next === IDLE) {
				if (signal?.aborted) throw streamInterrupted(node, 'cancelled', EXECUTION_CANCELED);
				if (deadline && Date.now() >= deadline.at)
					throw streamInterrupted(
						node,
						'deadline',
						`The stream did not end within ${seconds(deadline.timeoutMs)} seconds, the node's timeout`,
					);
				throw streamInterrupted(
					node,
					'idle',
					`The stream sent nothing for ${seconds(options.idleTimeoutMs)} seconds, the node's idle timeout`,
				);
			}
			if (next.done) {
				parser.feed(decoder.decode());
				parser.feed('\n\n'); // a last event without its blank line still counts
				yield* ready.splice(0);
				return;
			}
			lastByteAt = Date.now();
			parser.feed(
				typeof next.value === 'string' ? next.value : decoder.decode(next.value, { stream: true }),
			);
			yield* ready.splice(0);
		}
	} finally {
		reading = false;
		// Releases the socket when the reader stops early (idle, cancelled, or the caller broke off).
		void iterator.return?.().catch(() => undefined);
		await watchdog;
	}
}
