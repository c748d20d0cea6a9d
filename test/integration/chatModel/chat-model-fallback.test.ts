/**
 * The Agent Platform Chat Model set up as n8n sets it up (the node's supplyData, through n8n-core
 * with the node's own parameters), then called: setting up sends nothing, so that what only the
 * platform can say fails the model's call, where n8n's fallback model (AI Agent "Enable Fallback
 * Model", LangChain's withFallbacks: any error of a call) and Retry On Fail take over. Each failing
 * call's error: its class and its words.
 *
 * The AI node SDK ships with n8n (2.16+), not with this package: a stand-in gives what supplyData
 * uses (test/infra/n8n/sdkStandIn.ts); the requests are real, to the emulator. Real n8n
 * runs the fallback itself: test/e2e/chat-model-features.e2e.test.ts.
 *
 * Run: npx jest test/integration/chatModel/chat-model-fallback.test.ts --selectProjects integration
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameters,
	INodeType,
	ISupplyDataFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { LmChatAgentPlatform } from '../../../nodes/AgentPlatform/LmChatAgentPlatform.node';
import type { ChatModel } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import { credentialsFor, type HarnessCredentials } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, emu, TEXT, user } from './chat-model.shared';

jest.mock(
	'@n8n/ai-node-sdk',
	() =>
		jest.requireActual<typeof import('../../infra/n8n/sdkStandIn')>('../../infra/n8n/sdkStandIn')
			.standInSdk,
	{ virtual: true },
);

const GONE = 9999;

interface Outcome {
	/** Requests the set-up sent. */
	atSetUp: number;
	error?: Error & { description?: string; httpCode?: string };
}

/** The node's supplyData, then one call of the model it gave; what happened at each. */
function settingUpThenCalling(stream: boolean): INodeType {
	const chatModel = new LmChatAgentPlatform();
	return {
		description: {
			...chatModel.description,
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
		},
		async execute(this: IExecuteFunctions) {
			const supplied = await chatModel.supplyData.call(this as unknown as ISupplyDataFunctions, 0);
			const outcome: Outcome = { atSetUp: emu.requests.length };
			const model = (supplied.response as { chatModel: ChatModel }).chatModel;
			try {
				if (stream) for await (const chunk of model.stream([user('Hello')])) void chunk;
				else await model.generate([user('Hello')]);
			} catch (error) {
				outcome.error = error as Outcome['error'];
			}
			return [[{ json: outcome as unknown as IDataObject }]];
		},
	};
}

async function setUpAndCall(
	agentId: number,
	{
		credentials = credentialsFor(emu),
		options = {},
		stream = false,
	}: { credentials?: HarnessCredentials; options?: INodeParameters; stream?: boolean } = {},
): Promise<Outcome> {
	const result = await runNode({
		parameters: { agentId: { __rl: true, mode: 'id', value: String(agentId) }, options },
		credentials,
		nodeType: settingUpThenCalling(stream),
	});
	expect(result.error).toBeUndefined();
	return result.outputs[0][0].json as unknown as Outcome;
}

const words = (error: Outcome['error']) => `${error?.message} | ${error?.description}`;

describe('Agent Platform Chat Model: set up without a request, failing at the call', () => {
	it('a wrong API key: nothing sent at set-up; the call fails with a NodeApiError in plain words', async () => {
		const outcome = await setUpAndCall(CHAT, {
			credentials: { ...credentialsFor(emu), apiKey: 'wrong-key-1234' },
		});
		expect(outcome.atSetUp).toBe(0);
		expect(outcome.error?.constructor.name).toBe('NodeApiError');
		expect(outcome.error?.httpCode).toBe('403');
		expect(words(outcome.error)).toMatch(/API key/i);
		expect(words(outcome.error)).not.toContain('wrong-key-1234');
	});

	it('an agent the platform no longer has: nothing sent at set-up; the call fails, naming the agent', async () => {
		const outcome = await setUpAndCall(GONE);
		expect(outcome.atSetUp).toBe(0);
		expect(outcome.error?.constructor.name).toBe('NodeApiError');
		expect(outcome.error?.httpCode).toBe('404');
		expect(words(outcome.error)).toContain(`agent ${GONE}`);
		expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});

	it('an agent that is not a chat agent: the call fails in plain words, nothing sent to it', async () => {
		const outcome = await setUpAndCall(TEXT);
		expect(outcome.atSetUp).toBe(0);
		expect(outcome.error?.constructor.name).toBe('NodeOperationError');
		expect(outcome.error?.message).toMatch(/\(ID 3\) is a text agent, not a chat agent$/);
		// no Chat Trigger here: the description adds to the message (transport/chatErrors.ts)
		expect(outcome.error?.description).toMatch(/^Only a chat agent can be .*Nothing was sent/);
		expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});

	it('a 429 past its wait (Max Retries 0): the call fails with the rate limit named', async () => {
		await setUpAndCall(CHAT); // the agent's form kept: the call is the only request
		// one token in 10 minutes: the call is refused however long a busy machine takes to set it up
		emu.setFaults({ rateLimitPerSecond: 1 / 600, rateLimitBurst: 1, retryAfterSeconds: 60 });
		// someone else (another n8n, say) spends the key's token
		const spent = await fetch(`${emu.url}/agents`, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': emu.workspaceId },
		});
		expect(spent.status).toBe(200);
		emu.clearRequests();
		const outcome = await setUpAndCall(CHAT, { options: { maxRetries: 0 } });
		expect(outcome.atSetUp).toBe(0);
		expect(outcome.error?.constructor.name).toBe('NodeApiError');
		expect(outcome.error?.httpCode).toBe('429');
		expect(words(outcome.error)).toMatch(/rate limit/i);
		expect(emu.requests.map((r) => r.status)).toEqual([429]);
	});

	it.each([false, true])(
		'a 5xx (stream %s): the call fails with a NodeApiError, the platform called once',
		async (stream) => {
			await setUpAndCall(CHAT); // the agent's form kept
			emu.clearRequests();
			emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 500 });
			const outcome = await setUpAndCall(CHAT, { stream, options: { maxRetries: 0 } });
			expect(outcome.atSetUp).toBe(0);
			expect(outcome.error?.constructor.name).toBe('NodeApiError');
			expect(outcome.error?.httpCode).toBe('500');
			expect(words(outcome.error)).toMatch(/platform/i);
			expect(emu.requests).toHaveLength(1);
		},
	);

	it('a call past its Timeout fails with the timeout named', async () => {
		await setUpAndCall(CHAT);
		emu.clearRequests();
		emu.setFaults({ hangRate: 1 });
		const outcome = await setUpAndCall(CHAT, { options: { timeout: 1, maxRetries: 0 } });
		expect(outcome.atSetUp).toBe(0);
		expect(outcome.error?.constructor.name).toBe('NodeApiError');
		expect(words(outcome.error)).toMatch(/time|did not answer/i);
	});
});
