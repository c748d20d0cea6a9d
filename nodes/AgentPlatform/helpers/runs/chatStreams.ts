/**
 * Reading the two streamed answers, shared by Agent → Execute and Agent → Chat Completion: the
 * Server-Sent Events are passed on to the workflow's caller as they come, an error event fails
 * the item with the platform's words, and a broken or silent Execute stream is recovered by
 * polling the run it announced (the chat-completions endpoint leaves nothing to poll).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readServerSentEvents, streamInterruptionOf } from '../../transport/sse';
import { asNodeError } from '../../transport/errors';
import type { PlatformContext, StreamDeadline } from '../../transport/types';
import { isFinished, pollAgentResponse, throwIfErrorBody } from './agentResponses';
import { firstChoice } from './chatCompletions';
import { forwardStream } from './streaming';

export interface StreamSettings {
	itemIndex: number;
	idleTimeoutMs: number;
	/** The response's `streamDeadline` (transport/request.ts). */
	deadline?: StreamDeadline;
}

/** Each event's JSON; keep-alives and other non-JSON events carry nothing for us. */
async function* jsonEvents(
	ctx: PlatformContext,
	stream: AsyncIterable<Uint8Array>,
	settings: StreamSettings,
): AsyncGenerator<IDataObject | 'done'> {
	for await (const event of readServerSentEvents(ctx, stream, settings)) {
		if (event.data.trim() === '[DONE]') {
			yield 'done';
			return;
		}
		let data: unknown;
		try {
			data = JSON.parse(event.data);
		} catch {
			continue;
		}
		if (data !== null && typeof data === 'object' && !Array.isArray(data))
			yield data as IDataObject;
	}
}

/**
 * Reads an Execute stream (deltas in `output`, a last event with the status) into the run's
 * record. When the stream breaks or goes quiet after the run said its id, the run goes on on the
 * platform, so its record is polled for the whole output; nothing is sent again.
 */
export async function readExecuteStream(
	ctx: IExecuteFunctions,
	stream: AsyncIterable<Uint8Array>,
	settings: StreamSettings & { startedAt: number; timeoutMs: number },
): Promise<IDataObject> {
	const { itemIndex } = settings;
	const forward = forwardStream(ctx, itemIndex);
	let last: IDataObject | undefined;
	let output = '';
	let finished = false;
	let interrupted: unknown;
	try {
		for await (const data of jsonEvents(ctx, stream, settings)) {
			if (data === 'done') break;
			// an error event that is no run record: the platform's own words, as a failure
			if (data.error !== undefined && data.status === undefined)
				throwIfErrorBody(ctx, data, itemIndex);
			last = { ...last, ...data };
			if (typeof data.output === 'string' && data.output) {
				output += data.output;
				forward.send(data.output);
			}
			if (isFinished(data)) {
				finished = true;
				break;
			}
		}
	} catch (error) {
		interrupted = error;
	}
	if (interrupted !== undefined) {
		// Only a broken or silent stream of a known run can be recovered, by polling that run.
		const interruption = streamInterruptionOf(interrupted);
		if (!interruption || interruption === 'cancelled') throw interrupted;
	}
	let result: IDataObject;
	if (finished && last) {
		result = { ...last, output };
	} else if (last?.id !== undefined) {
		result = await pollAgentResponse(ctx, String(last.id), itemIndex, settings);
		const full = String(result.output ?? '');
		forward.send(full.startsWith(output) ? full.slice(output.length) : full);
	} else {
		throw new NodeOperationError(
			ctx.getNode(),
			`The stream ${interrupted === undefined ? 'ended' : 'broke off'} before the platform said which run it was`,
			{
				itemIndex,
				description:
					'The run may have started on the platform, but nothing identifies it, so its output cannot be fetched. ' +
					'Nothing was sent again, so it did not run twice. Run the node again.',
			},
		);
	}
	forward.end();
	return result;
}

/** One event of an OpenAI-style stream: its new piece of text, the event, and its first choice. */
export interface CompletionChunk {
	piece: string;
	chunk: IDataObject;
	choice: IDataObject;
}

/**
 * The pieces of an OpenAI-style stream (chat.completion.chunk events up to `[DONE]`), as they
 * come. An error event fails the item with the platform's words; a broken or silent stream fails
 * it too, since this endpoint leaves no record to fetch the rest from.
 */
export async function* completionChunks(
	ctx: PlatformContext,
	stream: AsyncIterable<Uint8Array>,
	settings: StreamSettings,
): AsyncGenerator<CompletionChunk> {
	const { itemIndex } = settings;
	try {
		for await (const chunk of jsonEvents(ctx, stream, settings)) {
			if (chunk === 'done') return;
			if (chunk.error !== undefined) throwIfErrorBody(ctx, chunk, itemIndex);
			const choice = firstChoice(chunk);
			const piece = (choice.delta as IDataObject | undefined)?.content;
			yield { piece: typeof piece === 'string' ? piece : '', chunk, choice };
		}
	} catch (error) {
		const interruption = streamInterruptionOf(error);
		if (interruption !== 'broken' && interruption !== 'idle')
			throw asNodeError(ctx.getNode(), error, itemIndex);
		throw new NodeOperationError(
			ctx.getNode(),
			`The streamed answer ${interruption === 'idle' ? 'went silent' : 'broke off'} before its end`,
			{
				itemIndex,
				description:
					`${(error as Error).message}. The chat-completions endpoint leaves nothing to fetch the rest from, and nothing was sent again, so the agent did not run twice. ` +
					'Run the node again, or use Agent → Execute with the response mode Stream, which recovers the whole output.',
			},
		);
	}
}

/** Reads an OpenAI-style stream into one chat.completion, passing the text on as it comes. */
export async function readCompletionStream(
	ctx: IExecuteFunctions,
	stream: AsyncIterable<Uint8Array>,
	settings: StreamSettings,
): Promise<IDataObject> {
	const forward = forwardStream(ctx, settings.itemIndex);
	let content = '';
	let first: IDataObject | undefined;
	let finishReason: unknown = null;
	let usage: unknown;
	for await (const { piece, chunk, choice } of completionChunks(ctx, stream, settings)) {
		first ??= chunk;
		content += piece;
		forward.send(piece);
		if (choice.finish_reason) finishReason = choice.finish_reason;
		if (chunk.usage) usage = chunk.usage;
	}
	forward.end();
	return {
		id: first?.id,
		object: 'chat.completion',
		created: first?.created,
		model: first?.model,
		choices: [
			{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason ?? 'stop' },
		],
		...(usage ? { usage } : {}),
	} as IDataObject;
}
