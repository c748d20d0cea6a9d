/**
 * The module `@n8n/ai-node-sdk` (n8n's AI node SDK) as far as this package uses it: the types of
 * the members the chat model reads or writes, under the SDK's own names, written from SDK 0.31.1
 * (its types are those of `@n8n/ai-utilities` 0.34.1, both in n8n 2.41.1). The SDK is not a
 * dependency of the build: n8n provides it at run time from 2.16 on, and these declarations let
 * the chat model's node file import its types (`import type`, which compiles to nothing), as n8n's
 * codex rules ask of a node in the "AI" category. The SDK's own types have more (reasoning and
 * `content` stream chunks, invalid tool calls, files, provider metadata, token details), which the
 * package neither sends nor reads.
 */
declare module '@n8n/ai-node-sdk' {
	export type FinishReason =
		'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

	export type MessageContent =
		| { type: 'text'; text: string }
		| { type: 'tool-call'; toolCallId?: string; toolName: string; input: string }
		| { type: 'tool-result'; toolCallId: string; result: unknown; isError?: boolean }
		| { type: string; [key: string]: unknown };

	export interface Message {
		role: 'system' | 'user' | 'assistant' | 'tool';
		content: MessageContent[];
		name?: string;
		id?: string;
	}

	export interface TokenUsage {
		promptTokens: number;
		completionTokens: number;
		totalTokens: number;
	}

	export interface GenerateResult {
		id?: string;
		finishReason?: FinishReason;
		usage?: TokenUsage;
		message: Message;
		/** Becomes the LangChain message's response_metadata. */
		providerMetadata?: Record<string, unknown>;
	}

	export type StreamChunk =
		| { type: 'text-delta'; delta: string; id?: string }
		| { type: 'tool-call-delta'; id?: string; name?: string; argumentsDelta?: string }
		| { type: 'finish'; finishReason: FinishReason; usage?: TokenUsage };

	/** A tool n8n binds to the model: a function tool's schema may still be a Zod schema. */
	export interface Tool {
		type: 'function' | 'provider';
		name: string;
		description?: string;
		inputSchema?: unknown;
	}

	export interface ChatModelConfig {
		temperature?: number;
		maxRetries?: number;
		timeout?: number;
		abortSignal?: AbortSignal;
	}

	export interface ChatModel {
		provider: string;
		modelId: string;
		generate(messages: Message[], config?: ChatModelConfig): Promise<GenerateResult>;
		stream(messages: Message[], config?: ChatModelConfig): AsyncIterable<StreamChunk>;
		withTools(tools: Tool[]): ChatModel;
	}
}
