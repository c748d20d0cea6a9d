/**
 * The chat model's calls to the platform: one request to the agent's chat-completions endpoint
 * per model call (a second one only for the tools protocol's one correction round), through the
 * package's one request function and pace. Errors reach the root node (the AI Agent, the chain)
 * as the package's plain errors; an empty answer is an error too, never an empty reply.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, apiRequestFull } from '../../transport/request';
import { asNodeError } from '../../transport/errors';
import type { PlatformContext } from '../../transport/types';
import { throwIfErrorBody } from '../runs/agentResponses';
import { chatCompletionsPath, completionText } from '../runs/chatCompletions';
import { completionChunks } from '../runs/chatStreams';
import type { GenerateResult, Message, StreamChunk, TokenUsage } from './aiNodeSdk';
import { toPlatformMessages, type PlatformMessage } from './platformMessages';
import {
	readToolsAnswer,
	toolsCorrection,
	type BoundTool,
	type ToolCallAnswer,
} from './toolsProtocol';

export interface ModelSettings {
	agentId: string;
	/** Model, Tools and Temperature as the endpoint takes them (absent: the agent's own). */
	choices: IDataObject;
	timeoutMs: number;
	idleTimeoutMs: number;
	maxRetries: number;
	/** Whether tools bound by n8n are described to the model (the tools protocol). */
	describeTools: boolean;
}

interface Reply {
	text: string;
	usage?: TokenUsage;
	id?: string;
}

function request(settings: ModelSettings, messages: PlatformMessage[], stream: boolean) {
	return {
		method: 'POST' as const,
		path: chatCompletionsPath(settings.agentId),
		body: { ...settings.choices, messages, ...(stream ? { stream: true } : {}) },
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

function notEmpty(ctx: PlatformContext, text: string): string {
	if (text.trim()) return text;
	throw new NodeOperationError(ctx.getNode(), "The platform's model gave an empty answer", {
		description:
			'The chat agent answered with no text. Nothing was sent again. Check the agent on the platform, or try another Model.',
	});
}

async function requestReply(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: PlatformMessage[],
): Promise<Reply> {
	try {
		const body = (await apiRequest(ctx, request(settings, messages, false))) as IDataObject;
		throwIfErrorBody(ctx, body, 0);
		const text = notEmpty(ctx, completionText(body));
		return { text, usage: usageOf(body.usage), id: body.id as string };
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
}

async function* requestPieces(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: PlatformMessage[],
): AsyncGenerator<string> {
	try {
		const { body } = await apiRequestFull(ctx, request(settings, messages, true));
		const stream = body as AsyncIterable<Uint8Array>;
		const reading = { itemIndex: 0, idleTimeoutMs: settings.idleTimeoutMs };
		for await (const { piece } of completionChunks(ctx, stream, reading)) if (piece) yield piece;
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
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

/** Reads the answer in the tools protocol, asking once more on a malformed one. */
async function settleToolsAnswer(
	ctx: PlatformContext,
	settings: ModelSettings,
	sent: PlatformMessage[],
	text: string,
	tools: BoundTool[],
): Promise<ToolCallAnswer | { kind: 'final'; text: string }> {
	const first = readToolsAnswer(text, tools);
	if (first.kind !== 'malformed') return first;
	const corrected = await requestReply(ctx, settings, [
		...sent,
		{ role: 'assistant', content: text },
		{ role: 'user', content: toolsCorrection(first.problem, tools) },
	]);
	const second = readToolsAnswer(corrected.text, tools);
	if (second.kind !== 'malformed') return second;
	throw new NodeOperationError(
		ctx.getNode(),
		"The platform's model did not call the tool in the shape it was asked for",
		{
			description: `Asked twice, its answer could not be read as a tool call: ${second.problem}. Try another Model of the agent, or see "Tools" in the package's docs/chat-model.md.`,
		},
	);
}

let calls = 0;
function callId(): string {
	return `agent_platform_call_${Date.now().toString(36)}_${++calls}`;
}

/** A tool call as the SDK's message part: a new call id, the arguments as JSON text. */
function toolCallPart(answer: ToolCallAnswer) {
	return {
		type: 'tool-call' as const,
		toolCallId: callId(),
		toolName: answer.name,
		input: JSON.stringify(answer.arguments),
	};
}

function assistantMessage(answer: ToolCallAnswer | { kind: 'final'; text: string }): Message {
	const part =
		answer.kind === 'final' ? { type: 'text' as const, text: answer.text } : toolCallPart(answer);
	return { role: 'assistant', content: [part] };
}

export async function generateAnswer(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
): Promise<GenerateResult> {
	refuseUndescribedTools(ctx, settings, tools);
	const sent = toPlatformMessages(messages, tools);
	const reply = await requestReply(ctx, settings, sent);
	const answer = tools.length
		? await settleToolsAnswer(ctx, settings, sent, reply.text, tools)
		: { kind: 'final' as const, text: reply.text };
	return {
		id: reply.id,
		finishReason: answer.kind === 'call' ? 'tool-calls' : 'stop',
		usage: reply.usage,
		message: assistantMessage(answer),
	};
}

/**
 * The answer as it is written. With tools bound, an answer that starts as JSON is held back until
 * it is read as a tool call or the final answer; prose is passed on at once.
 */
export async function* streamAnswer(
	ctx: PlatformContext,
	settings: ModelSettings,
	messages: Message[],
	tools: BoundTool[],
): AsyncGenerator<StreamChunk> {
	refuseUndescribedTools(ctx, settings, tools);
	const sent = toPlatformMessages(messages, tools);
	let mode: 'undecided' | 'prose' | 'held' = tools.length ? 'undecided' : 'prose';
	let text = '';
	for await (const piece of requestPieces(ctx, settings, sent)) {
		text += piece;
		if (mode === 'prose') {
			yield { type: 'text-delta', delta: piece };
		} else if (mode === 'undecided' && text.trim()) {
			mode = /^(\{|`)/.test(text.trimStart()) ? 'held' : 'prose';
			if (mode === 'prose') yield { type: 'text-delta', delta: text };
		}
	}
	notEmpty(ctx, text);
	if (mode === 'prose') {
		yield { type: 'finish', finishReason: 'stop' };
		return;
	}
	const answer = await settleToolsAnswer(ctx, settings, sent, text, tools);
	if (answer.kind === 'final') {
		yield { type: 'text-delta', delta: answer.text };
		yield { type: 'finish', finishReason: 'stop' };
		return;
	}
	const call = toolCallPart(answer);
	yield {
		type: 'tool-call-delta',
		id: call.toolCallId,
		name: call.toolName,
		argumentsDelta: call.input,
	};
	yield { type: 'finish', finishReason: 'tool-calls' };
}
