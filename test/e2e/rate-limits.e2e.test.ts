/**
 * Rate limits inside real n8n 1.x and 2.x, with the packed package: Memory → Get Many with Return
 * All over 12 pages (600 memories) against a platform that takes 1 request a second per API key
 * (the emulator's token bucket, burst 1), the credential's Requests per Second at 1. Every memory
 * comes out, in order; the pace sends the pages a second apart instead of having them refused.
 *
 * Run: npx jest --selectProjects e2e --runInBand test/e2e/rate-limits.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 */
import type { PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	lastNodeItems,
	log,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n, type LineN8n } from './lineN8n';

const API_KEY = 'e2e-rate-limits-key-41f7';
const WORKSPACE_ID = '42';
const PAGES = 12;
const MEMORIES_PER_PAGE = 50;

const CREDENTIAL = { id: fixtureId('credRateLimits'), name: 'Agent Platform (1 request a second)' };
const WORKFLOW = { getMany: 'memoriesGetAll01' };

describeEachLine()('n8n $line ($version): rate limits', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;

	useLineN8n(
		line,
		{
			tag: 'rate-limits',
			emulator: {
				apiKey: API_KEY,
				workspaceId: WORKSPACE_ID,
				seed: { memories: PAGES * MEMORIES_PER_PAGE },
			},
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 1 }),
			],
			workflows: () => [
				loadWorkflow('memories-get-many', {
					CREDENTIAL_ID: CREDENTIAL.id,
					CREDENTIAL_NAME: CREDENTIAL.name,
				}),
			],
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	test('Return All over 12 pages at 1 request a second completes with every item', async () => {
		emu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1 });
		const before = emu.requests.length;
		const runStarted = Date.now();
		const { run } = await n8n.executeOk(fixture.id(WORKFLOW.getMany));
		const seconds = (Date.now() - runStarted) / 1000;

		const stored = [...emu.state.memories.keys()].sort((a, b) => a - b);
		expect(stored).toHaveLength(PAGES * MEMORIES_PER_PAGE);
		expect(lastNodeItems(run).map((item) => Number(item.id))).toEqual(stored);

		const pages = emu.requests.slice(before).filter((r) => r.path === '/memories');
		const answered = pages.filter((r) => r.status === 200).map((r) => Number(r.query.page));
		expect(answered.sort((a, b) => a - b)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
		const refused = pages.filter((r) => r.status === 429).length;
		log(`n8n ${line.version}: ${PAGES} pages in ${seconds.toFixed(1)} s, ${refused} answered 429`);
		// paced, not refused: unpaced, every page after the first would be refused once at least. A
		// page sent a hair early is refused too (a busy machine bunches two sends): a count with room
		// for that, the spacing itself is rate-limits.timing.test.ts's, in the timing stage
		expect(refused).toBeLessThanOrEqual(PAGES / 4);
	});
});
