/**
 * Interactive first (transport/pace/workClass.ts, paceQueue.ts), through n8n's real execution
 * machinery: the execution mode n8n gives a run decides its class. A Return All of a scheduled run
 * (mode `trigger`: bulk) and Agent → Execute from the editor (mode `manual`: interactive) share one
 * credential against the emulator's token bucket.
 *
 * - An interactive request overtakes the queued pages, and the Return All still sends each page
 *   once (its page count unchanged).
 * - Bulk keeps its share: twelve interactive runs queued at once (Batch Size 12) leave the Return
 *   All at least one slot in three.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => emu.state.memories.clear());

const RATE = 10;
const TEXT_AGENT = '3';
const returnAll: INodeParameters = { resource: 'memory', operation: 'getAll', returnAll: true };
const startRuns: INodeParameters = {
	resource: 'agent',
	operation: 'execute',
	agentId: byId(TEXT_AGENT),
	responseMode: 'start',
	answers: { mappingMode: 'defineBelow', value: { topic: 'otters', tone: 'casual' } },
};
const isPage = (r: { path: string }) => r.path === '/memories';
const isRunStart = (r: { method: string; path: string }) =>
	r.method === 'POST' && r.path === `/agents/${TEXT_AGENT}/execute`;

/** The scheduled Return All (bulk), started now; resolves with its run. */
function scheduledReturnAll() {
	return runNode({
		parameters: returnAll,
		credentials: credentialsFor(emu, RATE),
		mode: 'trigger',
	});
}

describe('interactive work first, one credential', () => {
	it("a run from the editor overtakes a schedule's queued pages; every page is sent once", async () => {
		const PAGES = 16;
		const ids = emu.seedMemories(50 * PAGES);
		emu.setFaults({ rateLimitPerSecond: RATE, rateLimitBurst: 1 });
		const paging = scheduledReturnAll();
		await emu.waitFor(() => emu.requests.filter(isPage).length >= 3, 10_000);
		const sentAt = Date.now();
		const editorRun = await runNode({
			parameters: startRuns,
			credentials: credentialsFor(emu, RATE),
		});
		expect(editorRun.error).toBeUndefined();
		const start = emu.requests.find(isRunStart)!;
		// the agent's form, then the run: at most the page at the gate and bulk's one send in three
		const pagesBetween = emu.requests.filter((r) => isPage(r) && r.at >= sentAt && r.at < start.at);
		// (the order, not the time it took: a stalled process delays both alike)
		expect(pagesBetween.length).toBeLessThanOrEqual(2);

		const { outputs, error } = await paging;
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const pages = emu.requests.filter((r) => isPage(r) && r.status === 200);
		expect(pages.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: PAGES }, (_, i) => i + 1),
		);
		// refused pages sent again (a send a hair early at a bucket of one, as below)
		expect(emu.requests.filter((r) => isPage(r) && r.status === 429).length).toBeLessThanOrEqual(
			PAGES / 4,
		);
	});

	it('bulk keeps at least one slot in three while interactive work queues', async () => {
		const PAGES = 12;
		emu.seedMemories(50 * PAGES);
		emu.setFaults({ rateLimitPerSecond: RATE, rateLimitBurst: 1 });
		const paging = scheduledReturnAll();
		await emu.waitFor(() => emu.requests.filter(isPage).length >= 1, 10_000);
		const ITEMS = 12;
		const editorRuns = await runNode({
			parameters: { ...startRuns, batching: { batchSize: ITEMS } },
			items: Array.from({ length: ITEMS }, () => ({ json: {} })),
			credentials: credentialsFor(emu, RATE),
		});
		expect(editorRuns.error).toBeUndefined();
		expect(editorRuns.outputs[0]).toHaveLength(ITEMS);
		// each item started once: a start refused with a 429 was not taken, and was sent again. At a
		// bucket of one a send a hair early is refused (a stall of this process bunches two sends by
		// its length, and the pace's pad over 100 ms is 10 ms): a quarter of them at most, where
		// twelve sent at once unpaced would see eleven refused
		const starts = emu.requests.filter((r) => isRunStart(r) && r.status !== 429);
		expect(starts).toHaveLength(ITEMS);
		expect(
			emu.requests.filter((r) => isRunStart(r) && r.status === 429).length,
		).toBeLessThanOrEqual(ITEMS / 4);
		// while the twelve starts queued, bulk's pages kept going: at least one in three sends
		const during = emu.requests.filter((r) => r.at >= starts[0].at && r.at <= starts.at(-1)!.at);
		const pagesDuring = during.filter(isPage).length;
		expect(pagesDuring).toBeGreaterThanOrEqual(Math.floor((during.length - 1) / 3));
		expect((await paging).error).toBeUndefined();
	});
});
