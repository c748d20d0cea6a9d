/**
 * A node that calls the Agent Platform Chat Model's functions (helpers/chatModel/modelAnswers.ts)
 * once per call, as n8n's SDK adapter does for each model call of an AI Agent or chain, and outputs
 * what each gave back; run with runNode's `nodeType`, it gets n8n-core's real execution context.
 * The SDK class around those functions needs n8n 2.16's SDK: real n8n tries it (e2e).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type {
	Message,
	StreamChunk,
} from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import {
	generateAnswer,
	streamAnswer,
} from '../../../nodes/AgentPlatform/helpers/chatModel/modelAnswers';
import type { ModelSettings } from '../../../nodes/AgentPlatform/helpers/chatModel/platformCalls';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

export interface ModelCall {
	/** The messages, or made from what the earlier calls of the run gave (an agent's next turn). */
	messages: Message[] | ((earlier: IDataObject[]) => Message[]);
	tools?: BoundTool[];
	stream?: boolean;
	settings?: Partial<ModelSettings>;
	/** The tool the answer must call (LangChain's withStructuredOutput forces one). */
	forcedTool?: string;
	/** Sees each streamed chunk as it comes (e.g. to time the first one). */
	onChunk?: (chunk: StreamChunk) => void;
}

export const user = (text: string): Message => ({
	role: 'user',
	content: [{ type: 'text', text }],
});

export function modelCaller(calls: ModelCall[], agentId: number): INodeType {
	return {
		description: {
			displayName: 'Model caller',
			name: 'modelCaller',
			group: ['transform'],
			version: 1,
			description: 'Calls the Agent Platform chat model once per call',
			defaults: { name: 'Model caller' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'agentPlatformApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const out: INodeExecutionData[] = [];
			for (const call of calls) {
				const settings: ModelSettings = {
					agentId: String(agentId),
					choices: {},
					timeoutMs: 60_000,
					idleTimeoutMs: 30_000,
					maxRetries: 2,
					describeTools: true,
					...call.settings,
				};
				const tools = call.tools ?? [];
				const messages =
					typeof call.messages === 'function'
						? call.messages(out.map((item) => item.json))
						: call.messages;
				if (call.stream) {
					const chunks: IDataObject[] = [];
					for await (const chunk of streamAnswer(
						this,
						settings,
						messages,
						tools,
						call.forcedTool,
					)) {
						call.onChunk?.(chunk);
						chunks.push(chunk as unknown as IDataObject);
					}
					out.push({ json: { chunks } });
				} else {
					const result = await generateAnswer(this, settings, messages, tools, call.forcedTool);
					out.push({ json: result as unknown as IDataObject });
				}
			}
			return [out];
		},
	};
}

type Part = IDataObject & { type: string };

/** A streamed answer's chunks as the assistant message n8n's SDK adapter builds from them. */
export function streamedMessage(chunks: IDataObject[]): Message {
	const text = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta);
	const calls = chunks.filter((c) => c.type === 'tool-call-delta');
	return {
		role: 'assistant',
		content: [
			...(text.length ? [{ type: 'text', text: text.join('') }] : []),
			...calls.map((c) => ({
				type: 'tool-call',
				toolCallId: String(c.id),
				toolName: String(c.name),
				input: String(c.argumentsDelta),
			})),
		],
	};
}

/** The conversation after the assistant's message, each of its calls answered by `result`. */
export function withToolResults(
	conversation: Message[],
	assistant: Message,
	result: (toolName: string) => string,
): Message[] {
	const calls = assistant.content.filter((part) => part.type === 'tool-call') as Part[];
	return [
		...conversation,
		assistant,
		{
			role: 'tool',
			content: calls.map((part) => ({
				type: 'tool-result',
				toolCallId: String(part.toolCallId),
				result: result(String(part.toolName)),
			})),
		},
	];
}
