/**
 * The model as n8n's root nodes get it: the SDK's LangChain adapter around the platform's model,
 * with two things the adapter (SDK 0.31.1) does not do for a model of its own kind, done on the
 * instance (the package imports no LangChain):
 *
 * - `withStructuredOutput` (the Evaluation node's Correctness and Helpfulness metrics): LangChain's
 *   own pipeline binds one tool and reads the call from an AIMessageChunk, while the adapter's
 *   whole answer is an AIMessage ("Input is not an AIMessageChunk"). Here the bound model must call
 *   the tool (told to the model: the SDK drops `tool_choice`) and answers as its streamed chunks
 *   joined, which is a chunk.
 * - the callbacks set on the model after set-up (the Model Selector adds its tracing, and the
 *   index of its run to the model's own) go on to the copy the AI Agent binds its tools to, which
 *   the adapter makes with its own callbacks only: without them the logs show no model row.
 *
 * These members are the SDK's internals: they are checked before they are patched (sdkCheck.ts).
 */
import type { INode, SupplyData } from 'n8n-workflow';

import type { PlatformChatModel } from './platformChatModel';
import { movedInAdapter, sdkMovedError } from './sdkCheck';

interface MessageChunk {
	concat(other: MessageChunk): MessageChunk;
}

/** The members of n8n's adapter (a LangChain BaseChatModel) used here. */
interface Adapter {
	chatModel: PlatformChatModel & { tools: Array<{ name: string }> };
	callbacks?: unknown;
	bindTools(tools: unknown[], kwargs?: unknown): Adapter;
	withStructuredOutput(schema: unknown, config?: unknown): unknown;
	invoke(input: unknown, options?: unknown): Promise<unknown>;
	stream(input: unknown, options?: unknown): Promise<AsyncIterable<MessageChunk>>;
}

/**
 * The tool a `tool_choice` makes the answer call: a tool named (OpenAI's and LangChain's shapes),
 * or the one tool bound when any tool will do (`any`, `required`: the AI Agent's Force Tool Call
 * on First Iteration); none for `auto`, `none`, or any of several tools.
 */
export function forcedToolOf(kwargs: unknown, tools: Array<{ name: string }>): string | undefined {
	const choice = (kwargs as { tool_choice?: unknown } | undefined)?.tool_choice;
	if (typeof choice === 'string') {
		if (choice === 'any' || choice === 'required')
			return tools.length === 1 ? tools[0].name : undefined;
		return choice === 'auto' || choice === 'none' ? undefined : choice;
	}
	const named = choice as { name?: unknown; function?: { name?: unknown } } | undefined;
	const name = named?.function?.name ?? named?.name;
	return typeof name === 'string' ? name : undefined;
}

/**
 * The adapter's `bindTools` (SDK 0.31.1) takes the tools only: the `tool_choice` n8n passes beside
 * them (the AI Agent's Force Tool Call on First Iteration) is read here, and the bound copy must
 * call that tool. The copy also gets the adapter's callbacks.
 */
function carriesCallbacks(adapter: Adapter): Adapter {
	const bindTools = adapter.bindTools;
	adapter.bindTools = function (tools, kwargs) {
		const bound = carriesCallbacks(bindTools.call(adapter, tools, kwargs));
		bound.callbacks = adapter.callbacks;
		const forced = forcedToolOf(kwargs, bound.chatModel.tools);
		if (forced) bound.chatModel.forcedTool = forced;
		return bound;
	};
	return adapter;
}

/** A bound copy that must call its one tool, and answers as one chunk. */
function mustCallTool(bound: Adapter): Adapter {
	bound.chatModel.forcedTool = bound.chatModel.tools[0]?.name;
	bound.invoke = async (input, options) => {
		let whole: MessageChunk | undefined;
		for await (const chunk of await bound.stream(input, options))
			whole = whole ? whole.concat(chunk) : chunk;
		return whole;
	};
	return bound;
}

/** The adapter `supplyModel` gave for the model, checked, then patched; an error names what moved. */
export function asSuppliedModel(
	node: INode,
	supplied: SupplyData,
	model: PlatformChatModel,
): SupplyData {
	const moved = movedInAdapter(supplied?.response, model);
	if (moved.length) throw sdkMovedError(node, moved);
	const adapter = supplied.response as Adapter;
	carriesCallbacks(adapter);
	const withStructuredOutput = adapter.withStructuredOutput;
	adapter.withStructuredOutput = function (schema, config) {
		// LangChain's own pipeline (schema, name, includeRaw), around a copy that must call the tool
		const forcing = Object.create(adapter) as Adapter;
		forcing.bindTools = (tools, kwargs) => mustCallTool(adapter.bindTools(tools, kwargs));
		return withStructuredOutput.call(forcing, schema, config);
	};
	return supplied;
}
