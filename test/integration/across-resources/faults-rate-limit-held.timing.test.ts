/**
 * A key the platform holds longer than a run may wait (docs/rate-limits.md): after a 429 asking
 * past the node's rate-limit budget, the runs that follow on the same key fail at once with the
 * same words, sending nothing, instead of waiting in the pace for the hold; a run whose wait fits
 * its budget still waits it out and succeeds. In-process n8n against the emulator over loopback
 * (faults.shared.ts). The 429's wait is real time (the emulator's limiter does not scale it), so the
 * fitting case shortens the budget to 1 s rather than wait minutes.
 */
import { sleep } from 'n8n-workflow';
import { RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import { runNode } from '../../infra/n8n/runNode';
import { credentialsFor } from '../../infra/n8n/credentials';
import {
	CHAT_COMPLETION,
	EXECUTE_START,
	READS,
	emu,
	expectPlainWords,
	run,
	runs,
	savedRetry,
} from './faults.shared';

const HOUR_ASKED =
	"The platform's rate limit asks to wait 3600 seconds, longer than the node waits (300 seconds)";

afterEach(() => {
	RETRY.maxRateLimitWaitMs = savedRetry.maxRateLimitWaitMs;
});

describe('a key held past the rate-limit budget', () => {
	beforeEach(async () => {
		// one request every 100 s, and each 429 asks for an hour
		emu.setFaults({ rateLimitPerSecond: 0.01, retryAfterSeconds: 3600 });
		await run(READS[0]); // takes the one token
		emu.clearRequests();
	});

	it('the run after the 429 fails at once in the same words, nothing sent', async () => {
		const before = runs();
		const first = await run(EXECUTE_START);
		expect(first.error?.message).toBe(HOUR_ASKED);
		expect(emu.requests.map((r) => r.status)).toEqual([429]);
		emu.clearRequests();

		// the next chat message on the key (n8n's chat mode): before, it waited for the hour
		const second = await runNode({
			parameters: CHAT_COMPLETION.parameters(),
			credentials: credentialsFor(emu),
			mode: 'chat',
		});
		expect(second.error?.message).toBe(HOUR_ASKED);
		const description = (second.error as { description?: string }).description ?? '';
		// the message names the hour asked; the description adds what is left of it, once
		expect(description).not.toContain('asked to wait');
		expect(description).toMatch(/About (359\d|3600) seconds of it are left/);
		expect(description).toContain('Nothing was sent, so no agent ran twice.');
		expectPlainWords(second.error);
		expect((second.error as { httpCode?: string }).httpCode).toBe('429');
		expect(emu.requests).toHaveLength(0);
		expect(runs() - before).toBe(0);
	}, 20_000);

	it('honours Continue On Fail: each item gets the error, the run goes on, nothing sent', async () => {
		await run(EXECUTE_START); // the 429 that holds the key
		emu.clearRequests();
		const before = runs();
		const { outputs, error } = await runNode({
			parameters: EXECUTE_START.parameters(),
			items: [{ json: {} }, { json: {} }],
			credentials: credentialsFor(emu),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(2);
		for (const item of outputs[0]) expect(item.json.error).toBe(HOUR_ASKED);
		expect(emu.requests).toHaveLength(0);
		expect(runs() - before).toBe(0);
	}, 20_000);
});

it('a run whose wait for the held key fits its budget waits it out and succeeds', async () => {
	RETRY.maxRateLimitWaitMs = 1000;
	emu.setFaults({ rateLimitPerSecond: 0.01, retryAfterSeconds: 1.5 });
	await run(READS[0]); // takes the one token
	emu.clearRequests();
	const first = await run(EXECUTE_START);
	expect(first.error?.message).toBe(
		"The platform's rate limit asks to wait 2 seconds, longer than the node waits (1 second)",
	);
	const refusedAt = emu.requests[0].at;
	// the platform would answer now; the pace still holds the key for the 1.5 s asked
	emu.resetFaults();
	emu.clearRequests();
	await sleep(700); // what is left of the hold (at most 0.8 s) now fits the 1 s budget

	const before = runs();
	const { outputs, error } = await run(EXECUTE_START);
	expect(error).toBeUndefined();
	expect(outputs[0][0].json.status).toBe('starting');
	expect(runs() - before).toBe(1);
	expect(emu.requests.every((r) => r.status === 200)).toBe(true);
	// it waited for the hold: nothing went before the 1.5 s asked were over
	expect(emu.requests[0].at - refusedAt).toBeGreaterThanOrEqual(1500 - 20);
}, 20_000);
