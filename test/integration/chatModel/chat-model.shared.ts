/**
 * What the chat model's integration tests share: the emulator (its hooks run in each file that
 * imports this), and a run of the model's calls inside n8n's real execution machinery
 * (test/infra/n8n/modelCaller.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { credentialsFor } from '../../infra/n8n/credentials';
import { modelCaller, type ModelCall } from '../../infra/n8n/modelCaller';
import { runNode, type RunNodeResult } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../../dev/emulator';

export { user } from '../../infra/n8n/modelCaller';

export let emu: PlatformEmulator;
export { CHAT, TEXT };

useEmulator({ timeScale: 100, executionSeconds: 20, quiet: true }, (started) => (emu = started));
afterEach(() => emu.configureAgent(CHAT, { replies: undefined }));

/** The model's replies of the next requests, written out by the test (the emulator's `replies`). */
export const replies = (
	...said: Array<string | { output: string; finishReason: 'stop' | 'length' }>
) => emu.configureAgent(CHAT, { replies: said });

/** The Code tool's schema as n8n gives it (one string, `input`). */
export const CODE_TOOL: BoundTool = {
	name: 'lookup',
	description: 'Looks a word up',
	schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
};

/** Runs the calls in one node run; `json` is what each call gave back. */
export async function callModel(
	calls: ModelCall[],
	requestsPerSecond?: number,
): Promise<RunNodeResult & { json: IDataObject[] }> {
	const result = await runNode({
		parameters: {},
		credentials: credentialsFor(emu, requestsPerSecond),
		nodeType: modelCaller(calls, CHAT),
	});
	return { ...result, json: (result.outputs[0] ?? []).map((item) => item.json) };
}

export const completionPosts = () =>
	emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/openai/chat/completions'));
