/**
 * A streamed answer to n8n: the text shown as it is written (StreamedText's pending text is only
 * what may still become a call), then the answer read whole: a call given as a tool-call chunk, the
 * pending text of a final answer passed on, so that what the chat showed is the answer returned.
 * A forced tool's answer is the call alone: no text is passed on. Prose shown before a call ends
 * with a paragraph break, so that n8n's chat does not glue it to the answer after the tool.
 */
import type { PlatformContext } from '../../transport/types';
import type { Message, StreamChunk } from './aiNodeSdk';
import { reasoningUntil } from './learnedReasoning';
import { firstCallChunk, pendingCallsAfter } from './pendingCalls';
import { requestPieces, type ModelSettings } from './platformCalls';
import { toPlatformMessages } from './platformMessages';
import { settle, type Settled } from './settledAnswer';
import { familiesFor, StreamedText, type BoundTool } from './toolCallReader';
import { refuseUndescribedTools } from './toolsProtocol';

/**
 * What is left to show once the answer is read: the rest after what was shown; after a
 * correction, the corrected answer set apart from the prose shown before it (a stream cannot take
 * back what it showed); else the stream's pending text, so that none of it is dropped.
 */
function unshown(settled: Settled, shown: StreamedText): string {
	const { answer } = settled;
	const full = (answer.kind === 'final' ? answer.text : answer.prose).trimStart();
	if (!shown.shown) return full;
	if (full.startsWith(shown.shown)) return full.slice(shown.shown.length);
	if (settled.corrected) return full ? `\n\n${full}` : '';
	return answer.kind === 'final' ? shown.pending() : '';
}

/** What ends the prose shown before a call: a paragraph break before the answer after the tool. */
const PROSE_BEFORE_CALL_END = '\n\n';

export async function* answerStreamed(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool: string | undefined,
): AsyncGenerator<StreamChunk> {
	refuseUndescribedTools(ctx, settings.describeTools, tools);
	const waiting = tools.length ? pendingCallsAfter(messages) : undefined;
	if (waiting) {
		yield* firstCallChunk(waiting);
		yield { type: 'finish', finishReason: 'tool-calls' };
		return;
	}
	const sent = toPlatformMessages(messages, tools);
	const pieces = requestPieces(ctx, settings, sent);
	const shown = new StreamedText(
		tools.length ? tools : false,
		reasoningUntil(settings),
		familiesFor(settings.models),
	);
	let next = await pieces.next();
	for (; !next.done; next = await pieces.next()) {
		const delta = forcedTool ? '' : shown.push(next.value);
		if (delta) yield { type: 'text-delta', delta };
	}
	const settled = await settle(ctx, settings, sent, next.value, tools, forcedTool);
	const rest = forcedTool ? '' : unshown(settled, shown);
	if (rest) yield { type: 'text-delta', delta: rest };
	const { answer, reply } = settled;
	// n8n's chat joins this stream's text to the answer after the tool: a paragraph apart
	if (answer.kind === 'calls' && (shown.shown || rest).trim())
		yield { type: 'text-delta', delta: PROSE_BEFORE_CALL_END };
	if (answer.kind === 'calls') yield* firstCallChunk(answer.calls);
	yield {
		type: 'finish',
		finishReason: answer.kind === 'calls' ? 'tool-calls' : reply.finishReason,
		usage: reply.usage,
	};
}
