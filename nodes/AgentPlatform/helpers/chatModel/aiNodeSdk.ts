/**
 * n8n's AI node SDK (`@n8n/ai-node-sdk`, shipped with n8n from 2.16 on; marked preview by n8n),
 * loaded only when the chat model is used: it is a peer of n8n's own install, found at run time as
 * n8n-workflow is, and absent from older n8n, so every other node of the package loads on n8n 1.x.
 *
 * Its types are declared in aiNodeSdkModule.d.ts (only what this package reads or writes), so
 * that building the package does not need the SDK; each import of them is type-only and compiles
 * to nothing. What the model relies on beyond these is checked when it is set up (sdkCheck.ts).
 */
import type {
	ChatModel,
	ChatModelConfig,
	FinishReason,
	GenerateResult,
	Message,
	MessageContent,
	StreamChunk,
	TokenUsage,
	Tool,
} from '@n8n/ai-node-sdk';
import type { INode, ISupplyDataFunctions, SupplyData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export type {
	ChatModel,
	ChatModelConfig,
	FinishReason,
	GenerateResult,
	Message,
	MessageContent,
	StreamChunk,
	TokenUsage,
	Tool,
};

/** The SDK's abstract base class, as far as a subclass sees it. */
export type BaseChatModelClass = abstract new (
	provider: string,
	modelId: string,
	defaultConfig?: ChatModelConfig,
	tools?: Tool[],
) => ChatModel & { tools: Tool[] };

export interface AiNodeSdk {
	BaseChatModel: BaseChatModelClass;
	supplyModel(ctx: ISupplyDataFunctions, model: ChatModel): SupplyData;
	getParametersJsonSchema(tool: Tool): Record<string, unknown>;
}

/** The n8n version that first shipped the SDK. */
export const FIRST_N8N_WITH_SDK = '2.16';

let loaded: AiNodeSdk | undefined;

/** The SDK of the running n8n, or a plain error saying which n8n the model needs. */
export async function loadAiNodeSdk(node: INode): Promise<AiNodeSdk> {
	if (loaded) return loaded;
	try {
		// require, not import(): n8n adds its own modules to require's search path (NODE_PATH), which
		// an ES import does not read
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('@n8n/ai-node-sdk') as AiNodeSdk;
	} catch (error) {
		throw new NodeOperationError(
			node,
			`The Agent Platform Chat Model needs n8n ${FIRST_N8N_WITH_SDK} or later`,
			{
				description:
					`This n8n has no AI node SDK (@n8n/ai-node-sdk), which n8n ships from version ${FIRST_N8N_WITH_SDK} on. ` +
					"Update n8n to use the platform's models in the AI Agent and chains. Until then, the Agent Platform node's Agent → Chat Completion and Agent → Execute operations, and the Agent Platform tool in the AI Agent, work on this n8n. " +
					`(${(error as Error).message?.split('\n')[0] ?? error})`,
			},
		);
	}
	return loaded;
}

/**
 * The version of the running n8n's SDK, from its package.json (the SDK exports none): undefined
 * where the SDK is absent or does not export its package.json.
 */
export function aiNodeSdkVersion(): string | undefined {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const manifest = require('@n8n/ai-node-sdk/package.json') as { version?: unknown };
		return typeof manifest.version === 'string' ? manifest.version : undefined;
	} catch {
		return undefined;
	}
}
