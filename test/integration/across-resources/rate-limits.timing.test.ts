/**
 * The credential's pace (transport/pace/) against the emulator's two limiter models, through
 * n8n's real execution machinery: Memory → Get Many with Return All (pages of 50).
 *
 * - No starvation: under a token bucket of 1 request a second (burst 1), with the credential at
 *   1 request a second, page k is answered within the ideal (k - 1 seconds) plus one round.
 * - A long retry_after is honoured once for the whole run, not once per request: a 429 asking
 *   for RETRY_AFTER seconds is the only 429, and the run takes less than twice the wait plus the
 *   ideal (the wait is short here; the node treats 60 s the same way).
 * - A fixed window's headers are followed: after the first window (where the node learns when a
 *   window ends, from its one 429) not a single request is refused.
 * - Two node runs at once with one credential share one pace.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator, RecordedRequest } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => emu.state.memories.clear());

const seedMemories = (count: number) => emu.seedMemories(count);

const returnAll: INodeParameters = { resource: 'memory', operation: 'getAll', returnAll: true };
const memoryPages = (): RecordedRequest[] => emu.requests.filter((r) => r.path === '/memories');

async function listAll(requestsPerSecond: number) {
	const started = Date.now();
	const result = await runNode({
		parameters: returnAll,
		credentials: credentialsFor(emu, requestsPerSecond),
	});
	return { ...result, seconds: (Date.now() - started) / 1000 };
}

describe('token bucket, 1 request a second, burst 1', () => {
	it('no starvation: every page is answered within the ideal plus one round', async () => {
		const PAGES = 8;
		const ids = seedMemories(50 * PAGES);
		emu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1 });
		const { outputs, error } = await listAll(1);

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const answered = memoryPages().filter((r) => r.status === 200);
		expect(answered).toHaveLength(PAGES);
		const first = answered[0].at;
		for (const request of answered) {
			const page = Number(request.query.page);
			// ideal: page k at k - 1 seconds after the first; one round: one more second
			expect(request.at - first).toBeLessThanOrEqual((page - 1) * 1000 + 1000);
		}
		// at most one refused a hair early (network jitter at a bucket of one), and it cost no round
		expect(memoryPages().filter((r) => r.status === 429).length).toBeLessThanOrEqual(1);
	});

	it('a long retry_after is honoured once for the whole run, not once per request', async () => {
		const RETRY_AFTER = 6;
		const PAGES = 5;
		const ids = seedMemories(50 * PAGES);
		emu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1, retryAfterSeconds: RETRY_AFTER });
		// someone else (another n8n, say) spends the key's token: the run's first request is refused
		const other = await fetch(`${emu.url}/agents`, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': String(emu.workspaceId) },
		});
		expect(other.status).toBe(200);
		emu.clearRequests();
		const { outputs, error, seconds } = await listAll(1);

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const refused = memoryPages().filter((r) => r.status === 429);
		expect(refused).toHaveLength(1);
		const next = memoryPages().find((r) => r.at > refused[0].at)!;
		expect(next.at - refused[0].at).toBeGreaterThanOrEqual(RETRY_AFTER * 1000 - 20);
		// waited once: the wait, then the pages at (at worst half) the pace, not a wait per page
		const ideal = PAGES - 1;
		expect(seconds).toBeLessThan(2 * RETRY_AFTER + ideal);
	});
});

describe('fixed window, 5 requests per 2 seconds (Laravel headers)', () => {
	it('after the first window, not a single request is refused', async () => {
		const WINDOW = { limit: 5, seconds: 2 };
		const PAGES = 16;
		const ids = seedMemories(50 * PAGES);
		emu.setFaults({ rateLimitWindow: WINDOW });
		const { outputs, error } = await listAll(1);

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const pages = memoryPages();
		const firstWindowEnds = pages[0].at + WINDOW.seconds * 1000;
		const refused = pages.filter((r) => r.status === 429);
		expect(refused.length).toBeLessThanOrEqual(1);
		expect(refused.filter((r) => r.at >= firstWindowEnds)).toEqual([]);
		// the window's budget is used, not the credential's 1 request a second: 16 pages in four windows
		expect(pages.filter((r) => r.status === 200)).toHaveLength(PAGES);
	});
});

describe('one pace per credential', () => {
	it('two node runs at once with one API key share one pace: no 429, both complete', async () => {
		const ids = seedMemories(50 * 4);
		// a burst of 2 forgives jitter, not two runs pacing apart (they would send 4 a second)
		emu.setFaults({ rateLimitPerSecond: 2, rateLimitBurst: 2 });
		const [a, b] = await Promise.all([listAll(2), listAll(2)]);

		expect(a.error).toBeUndefined();
		expect(b.error).toBeUndefined();
		expect(a.outputs[0].map((item) => item.json.id)).toEqual(ids);
		expect(b.outputs[0].map((item) => item.json.id)).toEqual(ids);
		expect(memoryPages().filter((r) => r.status === 429)).toHaveLength(0);
		expect(memoryPages().filter((r) => r.status === 200)).toHaveLength(8);
	});
});
