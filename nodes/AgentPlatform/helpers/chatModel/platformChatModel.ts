/**
 * The chat model handed to n8n: a subclass of the SDK's BaseChatModel (so it is made only once
 * the SDK is loaded) whose answers are those of modelAnswers.ts.
 */
import type { ISupplyDataFunctions } from 'n8n-workflow';

import type { AiNodeSdk, ChatModel, Message } from './aiNodeSdk';
import { generateAnswer, streamAnswer } from './modelAnswers';
import type { ModelSettings } from './platformCalls';
import type { BoundTool } from './toolCallReader';

export function createPlatformChatModel(
	sdk: AiNodeSdk,
	ctx: ISupplyDataFunctions,
	settings: ModelSettings,
): ChatModel {
	class AgentPlatformChatModel extends sdk.BaseChatModel {
		async generate(messages: Message[]) {
			return await generateAnswer(ctx, settings, messages, this.boundTools());
		}

		async *stream(messages: Message[]) {
			yield* streamAnswer(ctx, settings, messages, this.boundTools());
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
	const modelId = String(settings.choices.model ?? `agent ${settings.agentId}`);
	return new AgentPlatformChatModel('agent-platform', modelId);
}
