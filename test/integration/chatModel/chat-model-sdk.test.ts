/**
 * The Agent Platform Chat Model set up (its supplyData, through n8n-core) on the AI node SDK as
 * installed in the project's n8n 2.x line (dev/n8n/lines/), required from that install as n8n's
 * module path finds it: the check of the SDK's internals (helpers/chatModel/sdkCheck.ts) passes on
 * it, the real adapter is patched and answers through the emulator; and the same SDK with one member
 * moved fails set-up with the SDK's version and what moved. Moved members one by one:
 * test/unit/chat-model/sdk-check.test.ts.
 *
 * Run: npx jest test/integration/chatModel/chat-model-sdk.test.ts --selectProjects integration
 */
import path from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ensureN8n, lineByName, n8nInstallDir } from '../../../dev/n8n/lines';
import type { AiNodeSdk } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import { LmChatAgentPlatform } from '../../../nodes/AgentPlatform/LmChatAgentPlatform.node';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, completionPosts, emu } from './chat-model.shared';

const LINE = lineByName('2');
const SDK_DIR = path.join(n8nInstallDir(LINE), 'node_modules', '@n8n', 'ai-node-sdk');

/** The SDK the node loads: the installed one, or a changed copy of it (set per test). */
const mockSdk: { current?: AiNodeSdk; version?: string } = {};
jest.mock(
	'@n8n/ai-node-sdk',
	() =>
		new Proxy({}, { get: (_target, name) => (mockSdk.current as never)?.[name as keyof object] }),
	{ virtual: true },
);
jest.mock(
	'@n8n/ai-node-sdk/package.json',
	() => ({
		get version() {
			return mockSdk.version;
		},
	}),
	{ virtual: true },
);

let installed: AiNodeSdk;

beforeAll(async () => {
	await ensureN8n(LINE);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	installed = require(SDK_DIR) as AiNodeSdk;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	mockSdk.version = (require(path.join(SDK_DIR, 'package.json')) as { version: string }).version;
}, 20 * 60_000);

beforeEach(() => (mockSdk.current = installed));

interface Adapter {
	constructor: { name: string };
	chatModel: unknown;
	callbacks: unknown;
	invoke(input: string): Promise<{ content: unknown }>;
}

/** Sets the model up as n8n does, then calls it once through the adapter it supplied. */
function settingUpThenCalling(): INodeType {
	const chatModel = new LmChatAgentPlatform();
	return {
		description: {
			...chatModel.description,
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
		},
		async execute(this: IExecuteFunctions) {
			const supplied = await chatModel.supplyData.call(this as unknown as ISupplyDataFunctions, 0);
			const adapter = supplied.response as Adapter;
			const atSetUp = emu.requests.length;
			// n8n's tracing (the adapter's callback) needs a sub-node's context, which this run is not
			adapter.callbacks = undefined;
			const answer = await adapter.invoke('Say hello');
			const json: IDataObject = {
				adapter: adapter.constructor.name,
				atSetUp,
				answer: JSON.stringify(answer.content),
			};
			return [[{ json }]];
		},
	};
}

const setUpAndCall = async () =>
	await runNode({
		parameters: { agentId: { __rl: true, mode: 'id', value: String(CHAT) } },
		credentials: credentialsFor(emu),
		nodeType: settingUpThenCalling(),
	});

describe(`the AI node SDK of n8n ${LINE.version} as installed`, () => {
	it("passes the check of the SDK's internals; its adapter answers through the platform", async () => {
		const result = await setUpAndCall();
		expect(result.error).toBeUndefined();
		const json = result.outputs[0][0].json;
		expect(json.adapter).toBe('LangchainChatModelAdapter');
		expect(json.atSetUp).toBe(0);
		expect(completionPosts().map((post) => post.body)).toEqual([
			{ messages: [{ role: 'user', content: 'Say hello' }] },
		]);
		expect(JSON.parse(String(json.answer))).toEqual([{ type: 'text', text: expect.any(String) }]);
	});

	it('with its adapter moved (the model kept as `model`): set-up fails naming the SDK version and what moved; nothing sent', async () => {
		mockSdk.current = {
			...installed,
			BaseChatModel: installed.BaseChatModel,
			getParametersJsonSchema: installed.getParametersJsonSchema,
			supplyModel: (ctx, model) => {
				const supplied = installed.supplyModel(ctx, model);
				const adapter = supplied.response as { chatModel?: unknown; model?: unknown };
				adapter.model = adapter.chatModel;
				delete adapter.chatModel;
				return supplied;
			},
		};
		emu.clearRequests();
		const result = await setUpAndCall();
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`The Agent Platform Chat Model does not work with this n8n's AI node SDK ${mockSdk.version}`,
		);
		expect((result.error as Error & { description?: string }).description).toContain(
			'the adapter no longer keeps the model as `chatModel`',
		);
		expect(emu.requests).toHaveLength(0);
	});
});
