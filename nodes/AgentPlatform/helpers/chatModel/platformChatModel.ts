/**
 * The chat model handed to n8n: a subclass of the SDK's BaseChatModel (so it is made only once
 * the SDK is loaded) whose answers are those of modelAnswers.ts. It is made from the form alone;
 * the agent is read at its first call (modelSettings.ts), so that whatever only the platform can
 * say fails that call, where n8n's fallback model and Retry On Fail take over.
 */
import type { ISupplyDataFunctions } from 'n8n-workflow';

import { readableInChat } from '../../transport/chatErrors';

import type { AiNodeSdk, ChatModel, Message } from './aiNodeSdk';
import { generateAnswer, streamAnswer } from './modelAnswers';
import { resolveModelSettings, type ModelParameters } from './modelSettings';
import type { ModelSettings } from './platformCalls';
import type { BoundTool } from './toolCallReader';

/**
 * The platform's model as n8n's SDK sees it; `forcedTool` is set on a copy that must call it
 * (suppliedModel.ts), and told to the model (modelAnswers.ts).
 */
export type PlatformChatModel = ChatModel & { forcedTool?: string };

export function createPlatformChatModel(
	sdk: AiNodeSdk,
	ctx: ISupplyDataFunctions,
	parameters: ModelParameters,
): PlatformChatModel {
	// read once for the model and its bound copies; a failure is the call's, and the next call reads again
	let resolved: Promise<ModelSettings> | undefined;
	async function settings(): Promise<ModelSettings> {
		resolved ??= resolveModelSettings(ctx, parameters);
		try {
			return await resolved;
		} catch (error) {
			resolved = undefined;
			throw readableInChat(ctx, error);
		}
	}

	class AgentPlatformChatModel extends sdk.BaseChatModel {
		forcedTool?: string;

		async generate(messages: Message[]) {
			const tools = this.boundTools();
			return await generateAnswer(ctx, await settings(), messages, tools, this.forcedTool);
		}

		async *stream(messages: Message[]) {
			const tools = this.boundTools();
			yield* streamAnswer(ctx, await settings(), messages, tools, this.forcedTool);
		}

		/** The function tools n8n bound, their schemas as JSON Schema (a Zod schema is converted). */
		boundTools(): BoundTool[] {
			return this.tools
				.filter((tool) => tool.type === 'function')
				.map((tool) => ({
					name: tool.name,
					description: tool.description ?? '',
					schema: sdk.getParametersJsonSchema(tool) ?? {},
				}));
		}
	}
	const modelId = String(parameters.formChoices.model ?? `agent ${parameters.agentId}`);
	return new AgentPlatformChatModel('agent-platform', modelId);
}
