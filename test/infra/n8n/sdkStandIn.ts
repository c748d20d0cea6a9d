/**
 * A stand-in for n8n's AI node SDK (which ships with n8n 2.16+, not with this package) for the
 * in-process tests of the chat model's set-up: its base class, `getParametersJsonSchema`, and a
 * `supplyModel` whose adapter has the members of the SDK 0.31.1 LangChain adapter that the model
 * relies on (helpers/chatModel/sdkCheck.ts), without LangChain: it answers no calls. The real SDK is
 * checked in test/integration/chatModel/chat-model-sdk.test.ts, and runs in real n8n (e2e).
 */
import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';

import type { ChatModel, Tool } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';

export class StandInChatModel {
	constructor(
		public provider: string,
		public modelId: string,
		public defaultConfig?: unknown,
		public tools: Tool[] = [],
	) {}

	/** As the SDK's: a copy of the model (same prototype) holding the tools too. */
	withTools(tools: Tool[]): this {
		const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
		Object.assign(copy, this);
		copy.tools = [...this.tools, ...tools];
		return copy;
	}
}

/** The shape of the SDK's LangChain adapter as the model uses it. */
export class StandInAdapter {
	callbacks: unknown = undefined;

	constructor(readonly chatModel: ChatModel) {}

	bindTools(tools: Array<{ function?: { name: string }; name?: string }>): StandInAdapter {
		const asTools: Tool[] = tools.map((tool) => ({
			type: 'function',
			name: tool.function?.name ?? tool.name ?? '',
		}));
		return new StandInAdapter(this.chatModel.withTools(asTools));
	}

	/** As LangChain's default: the schema bound as one tool. */
	withStructuredOutput(schema: unknown, config?: { name?: string }): StandInAdapter {
		return this.bindTools([{ function: { name: config?.name ?? 'extract' } }]);
	}

	async invoke(): Promise<never> {
		throw new Error('the stand-in adapter answers no calls');
	}

	async stream(): Promise<never> {
		throw new Error('the stand-in adapter answers no calls');
	}
}

export const standInSdk = {
	BaseChatModel: StandInChatModel,
	supplyModel: (_ctx: ISupplyDataFunctions, model: ChatModel): SupplyData => ({
		response: new StandInAdapter(model),
	}),
	getParametersJsonSchema: (tool: { inputSchema?: unknown }) => tool.inputSchema,
};
