/**
 * The chat model's answers to n8n, whole (`generate`) and streamed (`stream`, streamedAnswer.ts):
 * the platform's reply settled into calls or a final answer (settledAnswer.ts), a forced tool
 * choice told to the model, and errors worded for n8n's chat (readableInChat, transport/chatErrors.ts).
 */
import { readableInChat } from '../../transport/chatErrors';
import type { PlatformContext } from '../../transport/types';
import type { GenerateResult, Message, MessageContent, StreamChunk } from './aiNodeSdk';
import { toolCallPart } from './pendingCalls';
import { requestReply, type ModelSettings } from './platformCalls';
import { toPlatformMessages } from './platformMessages';
import { settle } from './settledAnswer';
import { answerStreamed } from './streamedAnswer';
import type { BoundTool } from './toolCallReader';
import { refuseUndescribedTools, withToolChoice } from './toolsProtocol';

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
		throw readableInChat(ctx, error);
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
		throw readableInChat(ctx, error);
	}
}

async function answerWhole(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
	forcedTool: string | undefined,
): Promise<GenerateResult> {
	refuseUndescribedTools(ctx, settings.describeTools, tools);
	const sent = toPlatformMessages(messages, tools);
	const first = await requestReply(ctx, settings, sent);
	const { answer, reply, note } = await settle(ctx, settings, sent, first, tools, forcedTool);
	const content: MessageContent[] =
		answer.kind === 'final'
			? [{ type: 'text', text: answer.text }]
			: [
					...(answer.prose ? [{ type: 'text' as const, text: answer.prose }] : []),
					...answer.calls.map(toolCallPart),
				];
	// the model's reasoning and what the reading did, out of the answer: in response_metadata
	const metadata = {
		...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
		...(note ? { toolCallReading: note } : {}),
	};
	return {
		id: reply.id,
		finishReason: answer.kind === 'calls' ? 'tool-calls' : reply.finishReason,
		usage: reply.usage,
		message: { role: 'assistant', content },
		...(Object.keys(metadata).length ? { providerMetadata: metadata } : {}),
	};
}
