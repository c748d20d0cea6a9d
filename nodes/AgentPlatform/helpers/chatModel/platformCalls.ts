/**
 * The chat model's requests to the agent's chat-completions endpoint, whole or streamed, through
 * the package's one request function and pace; each reply with its id, usage and finish reason as
 * the platform reported them. An empty answer is an error, never an empty reply.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, apiRequestFull } from '../../transport/request';
import { asNodeError } from '../../transport/errors';
import type { PlatformContext } from '../../transport/types';
import { throwIfErrorBody } from '../runs/agentResponses';
import { chatCompletionsPath, completionText, firstChoice } from '../runs/chatCompletions';
import { completionChunks } from '../runs/chatStreams';
import type { FinishReason, TokenUsage } from './aiNodeSdk';
import type { PlatformMessage } from './platformMessages';

export interface ModelSettings {
	agentId: string;
	/** Model, Tools and Temperature as the endpoint takes them (absent: the agent's own). */
	choices: IDataObject;
	timeoutMs: number;
	idleTimeoutMs: number;
	maxRetries: number;
	/** Whether tools bound by n8n are described to the model (the tools protocol). */
	describeTools: boolean;
	/**
	 * The models an answer may come from: the Model chosen, or with Agent Default the agent's
	 * Model options (its default is one of them); empty or absent when the agent lists none.
	 */
	models?: string[];
}

/** What a request gave: the answer's text, and what the platform reported about it. */
export interface Reply {
	text: string;
	id?: string;
	usage?: TokenUsage;
	finishReason: FinishReason;
}

/**
 * A streamed request asks for the usage the OpenAI-compatible way (`stream_options`): the
 * platform documents only `temperature`, `messages`, `tools` and `model`, and sends none today
 * (docs/chat-model.md, "Token usage"); a usage chunk, when one comes, is read.
 */
const STREAM_FIELDS = { stream: true, stream_options: { include_usage: true } };

function request(settings: ModelSettings, messages: PlatformMessage[], stream: boolean) {
	return {
		method: 'POST' as const,
		path: chatCompletionsPath(settings.agentId),
		body: { ...settings.choices, messages, ...(stream ? STREAM_FIELDS : {}) },
		timeoutMs: settings.timeoutMs,
		maxRetries: settings.maxRetries,
		resource: `agent ${settings.agentId}`,
		stream,
	};
}

function usageOf(raw: unknown): TokenUsage | undefined {
	const usage = raw as Record<string, unknown> | undefined;
	if (!usage || typeof usage.total_tokens !== 'number') return undefined;
	return {
		promptTokens: Number(usage.prompt_tokens ?? 0),
		completionTokens: Number(usage.completion_tokens ?? 0),
		totalTokens: usage.total_tokens,
	};
}

/** The usage of several requests (a correction round), as one; absent when none reported any. */
export function usageSum(...usages: Array<TokenUsage | undefined>): TokenUsage | undefined {
	const reported = usages.filter((usage): usage is TokenUsage => !!usage);
	if (!reported.length) return undefined;
	return reported.reduce((sum, usage) => ({
		promptTokens: sum.promptTokens + usage.promptTokens,
		completionTokens: sum.completionTokens + usage.completionTokens,
		totalTokens: sum.totalTokens + usage.totalTokens,
	}));
}

const FINISH_REASONS: Record<string, FinishReason> = {
	stop: 'stop',
	length: 'length',
	content_filter: 'content-filter',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
};

/** The platform's `finish_reason` in the SDK's words; none reported is a plain stop. */
function finishReasonOf(raw: unknown): FinishReason {
	if (raw === undefined || raw === null || raw === '') return 'stop';
	return FINISH_REASONS[String(raw)] ?? 'other';
}

function notEmpty(ctx: PlatformContext, text: string): string {
	if (text.trim()) return text;
	throw new NodeOperationError(ctx.getNode(), "The platform's model gave an empty answer", {
		description:
			'The chat agent answered with no text. Nothing was sent again. Check the agent on the platform, or try another Model.',
	});
}

export async function requestReply(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: PlatformMessage[],
): Promise<Reply> {
	try {
		const body = (await apiRequest(ctx, request(settings, messages, false))) as IDataObject;
		throwIfErrorBody(ctx, body, 0);
		return {
			text: notEmpty(ctx, completionText(body)),
			id: body.id as string | undefined,
			usage: usageOf(body.usage),
			finishReason: finishReasonOf(firstChoice(body).finish_reason),
		};
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
}

/** The answer's pieces as they come; the whole reply (text, id, usage, finish) is returned at the end. */
export async function* requestPieces(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: PlatformMessage[],
): AsyncGenerator<string, Reply> {
	const reply: Reply = { text: '', finishReason: 'stop' };
	let finish: unknown;
	try {
		const { body, streamDeadline } = await apiRequestFull(ctx, request(settings, messages, true));
		const stream = body as AsyncIterable<Uint8Array>;
		const reading = {
			itemIndex: 0,
			idleTimeoutMs: settings.idleTimeoutMs,
			deadline: streamDeadline,
		};
		for await (const { piece, chunk, choice } of completionChunks(ctx, stream, reading)) {
			reply.id ??= chunk.id as string | undefined;
			reply.usage = usageOf(chunk.usage) ?? reply.usage;
			finish = choice.finish_reason ?? finish;
			if (!piece) continue;
			reply.text += piece;
			yield piece;
		}
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
	notEmpty(ctx, reply.text);
	return { ...reply, finishReason: finishReasonOf(finish) };
}
