/**
 * What the chat model relies on in n8n's AI node SDK beyond the members its README documents:
 * suppliedModel.ts patches the SDK's LangChain adapter (read in SDK 0.31.1, n8n 2.41.1). The SDK
 * is a preview that n8n may change in any release, so the model checks these members when it is
 * set up, without a request: an n8n whose SDK moved one of them gets an error naming the SDK's
 * version and what moved, instead of a strange failure in a later call (docs/chat-model.md, "n8n
 * versions").
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AiNodeSdk, ChatModel } from './aiNodeSdk';
import { aiNodeSdkVersion } from './aiNodeSdk';

/** The SDK's exports the model uses. */
const EXPORTS = ['BaseChatModel', 'supplyModel', 'getParametersJsonSchema'] as const;

/** The adapter's methods suppliedModel.ts calls or replaces. */
const ADAPTER_METHODS = ['bindTools', 'withStructuredOutput', 'invoke', 'stream'] as const;

/** The tool name of the structured-output check: no model sees it. */
const CHECK_TOOL = 'agent_platform_sdk_check';

type Members = Record<string, unknown>;

const isObject = (value: unknown): value is Members => typeof value === 'object' && value !== null;

const failure = (error: unknown) =>
	error instanceof Error ? error.message.split('\n')[0] : String(error);

/** The SDK exports the model uses that this SDK lacks, as sentences. */
export function missingExports(sdk: unknown): string[] {
	const exported = isObject(sdk) ? sdk : {};
	return EXPORTS.filter((name) => typeof exported[name] !== 'function').map(
		(name) => `the SDK no longer exports \`${name}\``,
	);
}

/** What `bindTools` gives: an adapter around a copy of the model holding the tools. */
function boundCopyMoved(adapter: Members, model: ChatModel): string[] {
	let bound: unknown;
	try {
		bound = (adapter.bindTools as (tools: unknown[]) => unknown).call(adapter, []);
	} catch (error) {
		return [`the adapter's \`bindTools\` fails (${failure(error)})`];
	}
	const copy = isObject(bound) ? bound.chatModel : undefined;
	const isCopy =
		isObject(copy) &&
		Object.getPrototypeOf(copy) === Object.getPrototypeOf(model) &&
		Array.isArray(copy.tools);
	if (isCopy && typeof (bound as Members).bindTools === 'function') return [];
	return [
		"the adapter's `bindTools` no longer answers with an adapter whose `chatModel` is a copy of the model holding its `tools`",
	];
}

/** LangChain's `withStructuredOutput` binds the schema as one tool through `this.bindTools`. */
function structuredOutputMoved(adapter: Members): string[] {
	const seen: unknown[][] = [];
	const probe = Object.create(adapter) as Members;
	probe.bindTools = (tools: unknown[], ...rest: unknown[]) => {
		seen.push(tools);
		return (adapter.bindTools as (...args: unknown[]) => unknown).call(adapter, tools, ...rest);
	};
	try {
		const schema = { type: 'object', properties: {} };
		(adapter.withStructuredOutput as (schema: unknown, config: unknown) => unknown).call(
			probe,
			schema,
			{ name: CHECK_TOOL },
		);
	} catch (error) {
		return [`the adapter's \`withStructuredOutput\` fails (${failure(error)})`];
	}
	const [tool] = seen.length === 1 && seen[0].length === 1 ? seen[0] : [];
	const named = isObject(tool) && isObject(tool.function) ? tool.function.name : undefined;
	if (named === CHECK_TOOL) return [];
	return [
		"the adapter's `withStructuredOutput` no longer binds its schema as one tool through `bindTools`",
	];
}

/**
 * What moved in the adapter `supplyModel` gave for this model, as sentences; empty when every
 * member suppliedModel.ts relies on is where it expects it. Sends nothing.
 */
export function movedInAdapter(adapter: unknown, model: ChatModel): string[] {
	if (!isObject(adapter))
		return ['`supplyModel` no longer answers with a LangChain chat model (its `response`)'];
	const moved: string[] = [];
	if (adapter.chatModel !== model)
		moved.push('the adapter no longer keeps the model as `chatModel`');
	if (!('callbacks' in adapter)) moved.push('the adapter has no `callbacks`');
	const missing = ADAPTER_METHODS.filter((name) => typeof adapter[name] !== 'function');
	moved.push(...missing.map((name) => `the adapter has no \`${name}\` method`));
	if (missing.includes('bindTools')) return moved;
	moved.push(...boundCopyMoved(adapter, model));
	if (!missing.includes('withStructuredOutput')) moved.push(...structuredOutputMoved(adapter));
	return moved;
}

/** The error of an n8n whose SDK moved what the model relies on. */
export function sdkMovedError(node: INode, moved: string[]): NodeOperationError {
	const version = aiNodeSdkVersion();
	const sdk = version ? `AI node SDK ${version}` : 'AI node SDK';
	return new NodeOperationError(
		node,
		`The Agent Platform Chat Model does not work with this n8n's ${sdk}`,
		{
			description:
				`This n8n's ${sdk} (@n8n/ai-node-sdk, which n8n marks as a preview) has changed what the model relies on: ${moved.join('; ')}. ` +
				'Update n8n-nodes-agent-platform to a release made for this n8n (its docs list the n8n versions it is tested on), or use one of those n8n versions. ' +
				"Meanwhile the Agent Platform node's Agent → Chat Completion and Agent → Execute operations, and the Agent Platform tool in the AI Agent, work on this n8n.",
		},
	);
}

/** Throws sdkMovedError when the SDK lacks an export the model uses. */
export function checkSdkExports(node: INode, sdk: AiNodeSdk): void {
	const moved = missingExports(sdk);
	if (moved.length) throw sdkMovedError(node, moved);
}
