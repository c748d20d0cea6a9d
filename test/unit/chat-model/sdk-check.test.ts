/**
 * The check of the AI node SDK's internals the chat model relies on (helpers/chatModel/sdkCheck.ts),
 * on adapters shaped as the SDK 0.31.1 one (test/infra/n8n/sdkStandIn.ts) with one member moved at
 * a time, as a later n8n could move it. The SDK installed in n8n 2.41.1 passes the same check in
 * test/integration/chatModel/chat-model-sdk.test.ts.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type {
	AiNodeSdk,
	ChatModel,
} from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import {
	checkSdkExports,
	missingExports,
	movedInAdapter,
	sdkMovedError,
} from '../../../nodes/AgentPlatform/helpers/chatModel/sdkCheck';
import { asSuppliedModel } from '../../../nodes/AgentPlatform/helpers/chatModel/suppliedModel';
import { standInSdk, StandInAdapter, StandInChatModel } from '../../infra/n8n/sdkStandIn';

jest.mock('@n8n/ai-node-sdk/package.json', () => ({ version: '0.40.0' }), { virtual: true });

const node: INode = {
	id: 'model',
	name: 'Agent Platform Chat Model',
	type: 'n8n-nodes-agent-platform.lmChatAgentPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

class PlatformModel extends StandInChatModel {}

const model = () => new PlatformModel('agent-platform', 'agent 1') as unknown as ChatModel;

/** The adapter the stand-in SDK gives for the model, changed by `move`. */
function adapterFor(chatModel: ChatModel, move: (adapter: StandInAdapter) => object = (a) => a) {
	return move(new StandInAdapter(chatModel));
}

describe("the check of the SDK's internals", () => {
	it('an adapter shaped as SDK 0.31.1 gives passes: nothing moved', () => {
		const chatModel = model();
		expect(movedInAdapter(adapterFor(chatModel), chatModel)).toEqual([]);
		expect(missingExports(standInSdk)).toEqual([]);
	});

	it.each<[string, (adapter: StandInAdapter) => object, RegExp]>([
		[
			'the model kept under another name',
			(adapter) => {
				const { chatModel, ...rest } = adapter;
				return Object.assign(Object.create(StandInAdapter.prototype) as object, rest, {
					model: chatModel,
				});
			},
			/no longer keeps the model as `chatModel`/,
		],
		[
			'no bindTools',
			(adapter) => Object.assign(adapter, { bindTools: undefined }),
			/has no `bindTools` method/,
		],
		[
			'no invoke and no stream',
			(adapter) => Object.assign(adapter, { invoke: 'gone', stream: undefined }),
			/has no `invoke` method.*has no `stream` method/,
		],
		[
			'no callbacks',
			(adapter) => {
				delete (adapter as { callbacks?: unknown }).callbacks;
				return adapter;
			},
			/has no `callbacks`/,
		],
		[
			'bindTools giving a model that keeps its tools elsewhere',
			(adapter) =>
				Object.assign(adapter, {
					bindTools: () => ({ chatModel: { toolset: [] }, bindTools: () => undefined }),
				}),
			/`bindTools` no longer answers with an adapter whose `chatModel` is a copy/,
		],
		[
			'bindTools throwing',
			(adapter) =>
				Object.assign(adapter, {
					bindTools: () => {
						throw new TypeError('tools.map is not a function');
					},
				}),
			/`bindTools` fails \(tools\.map is not a function\)/,
		],
		[
			'withStructuredOutput no longer going through bindTools (a JSON mode of its own)',
			(adapter) => Object.assign(adapter, { withStructuredOutput: () => ({ jsonMode: true }) }),
			/`withStructuredOutput` no longer binds its schema as one tool through `bindTools`/,
		],
		[
			'withStructuredOutput calling the adapter it was made from, not `this`',
			(adapter) =>
				Object.assign(adapter, {
					withStructuredOutput: (schema: unknown) =>
						StandInAdapter.prototype.withStructuredOutput.call(adapter, schema),
				}),
			/`withStructuredOutput` no longer binds its schema as one tool/,
		],
	])('an adapter with %s: the check names what moved', (_case, move, named) => {
		const chatModel = model();
		const moved = movedInAdapter(adapterFor(chatModel, move), chatModel);
		expect(moved.join('; ')).toMatch(named);
	});

	it('supplyModel giving no adapter at all: named', () => {
		expect(movedInAdapter(undefined, model())).toEqual([
			'`supplyModel` no longer answers with a LangChain chat model (its `response`)',
		]);
	});

	it('set-up fails with a NodeOperationError naming the SDK version and what moved, nothing patched', () => {
		const chatModel = model();
		const adapter = adapterFor(chatModel, (a) => Object.assign(a, { bindTools: undefined }));
		const withStructuredOutput = (adapter as StandInAdapter).withStructuredOutput;
		let thrown: unknown;
		try {
			asSuppliedModel(node, { response: adapter }, chatModel);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		const error = thrown as NodeOperationError;
		expect(error.message).toBe(
			"The Agent Platform Chat Model does not work with this n8n's AI node SDK 0.40.0",
		);
		expect(error.description).toContain('has no `bindTools` method');
		expect(error.description).toMatch(/Update n8n-nodes-agent-platform/);
		expect((adapter as StandInAdapter).withStructuredOutput).toBe(withStructuredOutput);
	});

	it('an adapter that passes is patched: its bound copy must call the one tool', () => {
		const chatModel = model();
		const supplied = asSuppliedModel(node, { response: adapterFor(chatModel) }, chatModel);
		const adapter = supplied.response as StandInAdapter;
		const bound = adapter.withStructuredOutput({}, { name: 'verdict' }) as unknown as {
			chatModel: { forcedTool?: string };
		};
		expect(bound.chatModel.forcedTool).toBe('verdict');
	});

	it('an SDK without an export the model uses: named before the model is made', () => {
		const { BaseChatModel: _gone, ...rest } = standInSdk;
		expect(missingExports(rest)).toEqual(['the SDK no longer exports `BaseChatModel`']);
		expect(() => checkSdkExports(node, rest as unknown as AiNodeSdk)).toThrow(
			"does not work with this n8n's AI node SDK 0.40.0",
		);
		expect(sdkMovedError(node, ['x']).description).toContain(
			'has changed what the model relies on: x.',
		);
	});
});
