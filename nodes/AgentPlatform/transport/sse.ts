import type { EventSourceMessage } from 'eventsource-parser';
import { createParser } from 'eventsource-parser';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext, StreamDeadline } from './types';
import { cancelSignal, EXECUTION_CANCELED } from './cancellation';
import { deadlineRace, DUE } from './deadlineRace';

export type ServerSentEvent = EventSourceMessage;

export interface SseReadOptions {
	/** The stream counts as broken when no byte arrives for this long. */
	idleTimeoutMs: number;
	/** When the stream must have ended: the request's timeout from its send (request.ts). */
	deadline?: StreamDeadline;
}

/** Which limit ended a stream early: no byte for the idle timeout, or the request's whole timeout. */
export type StreamInterruption = 'idle' | 'deadline' | 'broken' | 'cancelled';

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
	const { deadline } = options;
	let lastByteAt = Date.now();
	// a watchdog notices a silent stream, the stream's deadline and a cancellation
	const step = Math.max(10, Math.min(100, options.idleTimeoutMs / 4));
	const watchdog = deadlineRace(
		() =>
			signal?.aborted === true ||
			Date.now() - lastByteAt > options.idleTimeoutMs ||
			Date.now() >= (deadline?.at ?? Infinity),
		() => step,
	);

	try {
		for (;;) {
			let next: IteratorResult<Uint8Array | string> | typeof DUE;
			try {
				next = await watchdog.race(iterator.next());
			} catch (error) {
				if (signal?.aborted) throw streamInterrupted(node, 'cancelled', EXECUTION_CANCELED);
				throw streamInterrupted(
					node,
					'broken',
					`The stream broke: ${(error as Error).message ?? error}`,
				);
			}
			if (next === DUE) {
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
		// Releases the socket when the reader stops early (idle, cancelled, or the caller broke off).
		void iterator.return?.().catch(() => undefined);
		await watchdog.stop();
	}
}
