/**
 * What the chat model's integration tests share. The model's calls (helpers/chatModel/
 * completions.ts) run inside a node of n8n's real execution machinery, against the emulator: the
 * SDK class around them (platformChatModel.ts) needs n8n 2.16's SDK and is tried in real n8n by
 * test/e2e/chat-model.e2e.test.ts. The node below calls the model once per item, as the SDK's
 * adapter does for each call of an AI Agent or chain, and outputs what the model gave back.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import type { Message } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import {
	generateAnswer,
	streamAnswer,
	type ModelSettings,
} from '../../../nodes/AgentPlatform/helpers/chatModel/completions';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode, type RunNodeResult } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

export let emu: PlatformEmulator;
export const CHAT = 1; // seeded chat agent
export const TEXT = 3; // seeded text agent: its chat-completions endpoint refuses

useEmulator({ timeScale: 100, executionSeconds: 20, quiet: true }, (started) => (emu = started));

/** The Code tool's schema as n8n gives it (one string, `input`). */
export const CODE_TOOL: BoundTool = {
	name: 'lookup',
	description: 'Looks a word up',
	schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
};

export interface ModelCall {
	messages: Message[];
	tools?: BoundTool[];
	stream?: boolean;
	settings?: Partial<ModelSettings>;
}

export const user = (text: string): Message => ({
	role: 'user',
	content: [{ type: 'text', text }],
});

function modelCaller(calls: ModelCall[]): INodeType {
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
					agentId: String(CHAT),
					choices: {},
					timeoutMs: 60_000,
					idleTimeoutMs: 30_000,
					maxRetries: 2,
					describeTools: true,
					...call.settings,
				};
				const tools = call.tools ?? [];
				if (call.stream) {
					const chunks: IDataObject[] = [];
					for await (const chunk of streamAnswer(this, settings, call.messages, tools))
						chunks.push(chunk as unknown as IDataObject);
					out.push({ json: { chunks } });
				} else {
					const result = await generateAnswer(this, settings, call.messages, tools);
					out.push({ json: result as unknown as IDataObject });
				}
			}
			return [out];
		},
	};
}

/** Runs the calls in one node run; `json` is what each call gave back. */
export async function callModel(
	calls: ModelCall[],
	requestsPerSecond?: number,
): Promise<RunNodeResult & { json: IDataObject[] }> {
	const result = await runNode({
		parameters: {},
		credentials: credentialsFor(emu, requestsPerSecond),
		nodeType: modelCaller(calls),
	});
	return { ...result, json: (result.outputs[0] ?? []).map((item) => item.json) };
}

export const completionPosts = () =>
	emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/openai/chat/completions'));
