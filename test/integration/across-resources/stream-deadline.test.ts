/**
 * A streamed call ends within the node's Timeout (transport/sse.ts, limitStream), not only when it
 * goes quiet: pieces that keep coming (or keep-alives) no longer keep it open past what the user
 * set. Through n8n's real execution machinery against the emulator in real time; the error says
 * which limit was reached.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT } from '../../../dev/emulator';

/** The node's Timeout, in minutes: 3 s. */
const TIMEOUT_MINUTES = 0.05;
let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
// a run of 20 s streaming a piece every half second: never quiet for the idle timeout
beforeEach(() => emu.configureAgent(CHAT, { executionSeconds: 20, streamEvents: 40 }));
afterAll(() => emu.configureAgent(CHAT, { executionSeconds: 3, streamEvents: 8 }));

const chat = (extra: INodeParameters): INodeParameters => ({
	resource: 'agent',
	agentId: byId(CHAT),
	message: 'Hello there, agent',
	...emu.firstOptions(CHAT),
	...extra,
});

describe("a streamed call ends within the node's Timeout", () => {
	it('Execute, Stream: the run still streaming at the Timeout fails saying so', async () => {
		const { error } = await runNode({
			parameters: chat({
				operation: 'execute',
				responseMode: 'stream',
				options: { timeout: TIMEOUT_MINUTES },
			}),
			credentials: credentialsFor(emu),
			streaming: { onChunk: () => undefined },
		});
		expect(error?.message).toMatch(/did not finish within 3 seconds/);
		// the run was started once; nothing was sent again
		expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	}, 30_000);

	it('Chat Completion, streamed: the answer still streaming at the Timeout fails saying so', async () => {
		const { error } = await runNode({
			parameters: chat({
				operation: 'chatCompletion',
				stream: true,
				options: { timeout: TIMEOUT_MINUTES },
			}),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toMatch(/did not end within 3 seconds, the node's timeout/);
		expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	}, 30_000);
});
