/**
 * The chat model's answers to n8n, whole (`generate`) and streamed (`stream`): the platform's
 * reply read for tool calls (settledAnswer.ts), the usage of every request summed, a forced tool
 * choice told to the model, and the later calls of a streamed answer given without a request.
 */
import { NodeOperationError } from 'n8n-workflow';

import { BoundedMap } from '../../transport/boundedMap';
import type { PlatformContext } from '../../transport/types';
import type { GenerateResult, Message, MessageContent, StreamChunk } from './aiNodeSdk';
import { requestPieces, requestReply, type ModelSettings } from './platformCalls';
import { toPlatformMessages } from './platformMessages';
import { reasoningUntil, settle } from './settledAnswer';
import { StreamedText, type BoundTool, type ToolCall } from './toolCallReader';
import { toolChoiceInstruction } from './toolsProtocol';

/**
 * The calls of a streamed answer not given yet, by the id of the call given before them. n8n's
 * SDK adapter gives every streamed call the index 0, so LangChain would merge two calls of one
 * stream into one broken call: a stream carries one call, and the next is given, without a
 * request, when the result of the one before comes back. The AI Agent (3.x) runs its tools between
 * two runs of its node, each with a new model, so they are kept here, by their unique call ids;
 * each is taken once, and the oldest go first beyond a hundred.
 */
const held = new BoundedMap<string, ToolCall[]>(() => 100);

let calls = 0;
function callId(): string {
	return `agent_platform_call_${Date.now().toString(36)}_${++calls}`;
}

function toolCallPart(call: ToolCall) {
	return {
		type: 'tool-call' as const,
		toolCallId: callId(),
		toolName: call.name,
		input: JSON.stringify(call.arguments),
	};
}

function refuseUndescribedTools(ctx: PlatformContext, settings: ModelSettings, tools: BoundTool[]) {
	if (!tools.length || settings.describeTools) return;
	throw new NodeOperationError(
		ctx.getNode(),
		'This model was given tools, and its option "Describe Tools to the Model" is off',
		{
			description:
				"The platform's chat endpoint has no function calling of its own: the model learns about n8n's tools only from their description. Turn the option on, or remove the tools from the AI Agent.",
		},
	);
}

/**
 * The error with its message at the start of its description: n8n's chat shows an error's
 * description alone, and the message holds the package's words ("The platform refused the
 * request: …").
 */
export function readableInChat(error: unknown): unknown {
	const failure = error as { message?: unknown; description?: unknown } | undefined;
	if (!failure || typeof failure.message !== 'string' || !failure.message) return error;
	const description = typeof failure.description === 'string' ? failure.description : '';
	const sentence = /[.!?]$/.test(failure.message) ? failure.message : `${failure.message}.`;
	if (!description.startsWith(failure.message))
		failure.description = description ? `${sentence} ${description}` : failure.message;
	return error;
}

/**
 * A forced tool choice (LangChain's withStructuredOutput) told to the model, first: the SDK drops
 * `tool_choice`, and the platform has no function calling of its own.
 */
function withToolChoice(messages: Message[], forcedTool: string | undefined): Message[] {
	if (!forcedTool) return messages;
	const text = toolChoiceInstruction(forcedTool);
	return [{ role: 'system', content: [{ type: 'text', text }] }, ...messages];
}

export async function generateAnswer(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool?: string,
): Promise<GenerateResult> {
	try {
		return await answerWhole(
			ctx,
			settings,
			withToolChoice(messages, forcedTool),
			tools,
			forcedTool,
		);
	} catch (error) {
		throw readableInChat(error);
	}
}

export async function* streamAnswer(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool?: string,
): AsyncGenerator<StreamChunk> {
	try {
		yield* answerStreamed(ctx, settings, withToolChoice(messages, forcedTool), tools, forcedTool);
	} catch (error) {
		throw readableInChat(error);
	}
}

async function answerWhole(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool: string | undefined,
): Promise<GenerateResult> {
	refuseUndescribedTools(ctx, settings, tools);
	const sent = toPlatformMessages(messages, tools);
	const first = await requestReply(ctx, settings, sent);
	const { answer, reply } = await settle(ctx, settings, sent, first, tools, forcedTool);
	const content: MessageContent[] =
		answer.kind === 'final'
			? [{ type: 'text', text: answer.text }]
			: [
					...(answer.prose ? [{ type: 'text' as const, text: answer.prose }] : []),
					...answer.calls.map(toolCallPart),
				];
	return {
		id: reply.id,
		finishReason: answer.kind === 'calls' ? 'tool-calls' : reply.finishReason,
		usage: reply.usage,
		message: { role: 'assistant', content },
		// the model's reasoning, out of the answer: in the message's response_metadata (run data)
		...(answer.reasoning ? { providerMetadata: { reasoning: answer.reasoning } } : {}),
	};
}

/** The call held for the tool result that ends the conversation, if any (taken once). */
function heldCallFor(messages: Message[]): ToolCall[] | undefined {
	const last = messages[messages.length - 1];
	if (last?.role !== 'tool') return undefined;
	for (const part of last.content) {
		const id = part.type === 'tool-result' ? String(part.toolCallId) : undefined;
		const waiting = id ? held.get(id) : undefined;
		if (!id || !waiting) continue;
		held.delete(id);
		return waiting;
	}
	return undefined;
}

function* callChunks(waiting: ToolCall[]): Generator<StreamChunk> {
	const [next, ...later] = waiting;
	const part = toolCallPart(next);
	if (later.length) {
		held.set(part.toolCallId, later);
	}
	yield {
		type: 'tool-call-delta',
		id: part.toolCallId,
		name: part.toolName,
		argumentsDelta: part.input,
	};
}

/**
 * What is left to show of the answer once it is read: the rest after what was shown (spaces at
 * the start aside); after a correction, the corrected answer, set apart from the prose shown
 * before it (a stream cannot take back what it showed).
 */
function unshown(answer: string, shown: string, corrected: boolean): string {
	const full = answer.trimStart();
	if (!shown) return full;
	if (full.startsWith(shown)) return full.slice(shown.length);
	return corrected && full ? `\n\n${full}` : '';
}

/**
 * The answer as it is written. Prose is passed on as it comes; reasoning is never shown; with
 * tools bound, anything that may open a call (toolCalls/markers.ts) is held until the answer is
 * read: a call is given as a tool call, never as text; what turns out to be answer is passed on
 * then. A forced tool's answer is the call alone: no text is passed on.
 */
async function* answerStreamed(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool: string | undefined,
): AsyncGenerator<StreamChunk> {
	refuseUndescribedTools(ctx, settings, tools);
	const waiting = tools.length ? heldCallFor(messages) : undefined;
	if (waiting) {
		yield* callChunks(waiting);
		yield { type: 'finish', finishReason: 'tool-calls' };
		return;
	}
	const sent = toPlatformMessages(messages, tools);
	const pieces = requestPieces(ctx, settings, sent);
	const shown = new StreamedText(tools.length > 0, reasoningUntil(settings));
	let next = await pieces.next();
	for (; !next.done; next = await pieces.next()) {
		const delta = forcedTool ? '' : shown.push(next.value);
		if (delta) yield { type: 'text-delta', delta };
	}
	const streamed = next.value;
	const { answer, reply } = await settle(ctx, settings, sent, streamed, tools, forcedTool);
	const rest = forcedTool
		? ''
		: unshown(
				answer.kind === 'final' ? answer.text : answer.prose,
				shown.shown,
				reply !== streamed,
			);
	if (rest) yield { type: 'text-delta', delta: rest };
	if (answer.kind === 'calls') yield* callChunks(answer.calls);
	yield {
		type: 'finish',
		finishReason: answer.kind === 'calls' ? 'tool-calls' : reply.finishReason,
		usage: reply.usage,
	};
}
