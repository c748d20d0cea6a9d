/**
 * Every slot of the pace is given back (transport/request.ts, exchange): whatever becomes of a
 * request, the next one with the key goes out at once. Through n8n's real execution machinery
 * against the emulator, with the slow start on and a cold pace, where one slot kept holds the key:
 * a request that fails in each way, then an Agent → Get with the same key.
 *
 * The paths: an error answer whose streamed body breaks, one whose body stalls, a timeout, a
 * cancelled execution, a connection reset (an error thrown by n8n's client).
 */
import type { INodeParameters } from 'n8n-workflow';

import type { EmulatorFaults, PlatformEmulator } from '../../../dev/emulator';
import { PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { REQUEST_TIMEOUT } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import type { RunNodeOptions } from '../../infra/n8n/runNode';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

const CHAT = 1;
const TEXT = 3;
let emu: PlatformEmulator;
const saved = { pacing: { ...PACING }, timeout: { ...REQUEST_TIMEOUT } };

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => {
	// the slow start as shipped; a request in flight counts against it for as long as it is out
	// here, so that only giving its slot back lets the next request go
	PACING.slowStartAnswers = saved.pacing.slowStartAnswers;
	PACING.letThroughAfterMs = 60_000;
});
afterEach(() => {
	Object.assign(PACING, saved.pacing);
	Object.assign(REQUEST_TIMEOUT, saved.timeout);
});

const chat = (responseMode: string): INodeParameters => ({
	resource: 'agent',
	operation: 'execute',
	agentId: byId(CHAT),
	message: 'Hello there, agent',
	...emu.firstOptions(CHAT),
	responseMode,
});
const agentGet: INodeParameters = { resource: 'agent', operation: 'get', agentId: byId(TEXT) };
const isAgentGet = (r: { method: string; path: string }) =>
	r.method === 'GET' && r.path === `/agents/${TEXT}`;

/** Runs `parameters` under `faults`, then an Agent → Get with the same key: when did that go out? */
async function thenNext(
	parameters: INodeParameters,
	faults: Partial<EmulatorFaults>,
	options: Partial<RunNodeOptions> = {},
) {
	const credentials = credentialsFor(emu, 1000);
	emu.setFaults(faults);
	const first = await runNode({ parameters, credentials, ...options });
	emu.resetFaults();
	const endedAt = Date.now();
	// a slot not given back would keep this one waiting until the test's end: it is cancelled after 5 s at the latest
	const next = await runNode({ parameters: agentGet, credentials, cancelAfterMs: 5000 });
	const sent = emu.requests.find(isAgentGet);
	return { first, next, waitedMs: sent ? sent.at - endedAt : Infinity };
}

/**
 * "At once", with room for a loaded machine: a slot not given back sends nothing before the 5 s
 * cancel (waitedMs Infinity); a busy 2-core machine delays the next in-process node run by a
 * second or more, which is not the fault.
 */
const WITHIN_MS = 3000;

describe('every slot is given back: the next request goes out at once', () => {
	it('an error answer whose streamed body breaks', async () => {
		const { first, next, waitedMs } = await thenNext(chat('stream'), {
			serverErrorRate: 1,
			serverErrorStatus: 500,
			faultMethods: ['POST'],
			errorBodyCut: 'reset',
		});
		expect(first.error?.message).toMatch(/500|server/i);
		expect(next.error).toBeUndefined();
		expect(waitedMs).toBeLessThan(WITHIN_MS);
	});

	it('an error answer whose streamed body stalls: read for a limited time, then given up', async () => {
		REQUEST_TIMEOUT.errorBodyMs = 500;
		const { first, next, waitedMs } = await thenNext(chat('stream'), {
			serverErrorRate: 1,
			serverErrorStatus: 500,
			faultMethods: ['POST'],
			errorBodyCut: 'silent',
		});
		expect(first.error?.message).toMatch(/500|server/i);
		expect(next.error).toBeUndefined();
		expect(waitedMs).toBeLessThan(WITHIN_MS);
	});

	it('a request that times out', async () => {
		REQUEST_TIMEOUT.defaultMs = 300;
		const { first, next, waitedMs } = await thenNext(
			{ resource: 'agent', operation: 'get', agentId: byId(CHAT) },
			{ hangRate: 1 },
		);
		expect(first.error?.message).toMatch(/did not answer within/);
		expect(next.error).toBeUndefined();
		expect(waitedMs).toBeLessThan(WITHIN_MS);
	});

	it('a cancelled execution whose request was in flight', async () => {
		emu.configureAgent(CHAT, { executionSeconds: 30 });
		const { first, next, waitedMs } = await thenNext(chat('wait'), {}, { cancelAfterMs: 500 });
		expect(first.cancelled).toBe(true);
		expect(next.error).toBeUndefined();
		expect(waitedMs).toBeLessThan(WITHIN_MS);
		emu.configureAgent(CHAT, { executionSeconds: 3 });
	});

	it('a connection reset (an error thrown by the client)', async () => {
		const { next, waitedMs } = await thenNext(chat('start'), {
			resetConnectionRate: 1,
			faultMethods: ['POST'],
		});
		// the start got no answer (the node then looks the run up rather than send it again)
		expect(emu.requests.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([0]);
		expect(next.error).toBeUndefined();
		expect(waitedMs).toBeLessThan(WITHIN_MS);
	});
});
