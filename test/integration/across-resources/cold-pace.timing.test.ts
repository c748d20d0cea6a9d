/**
 * A cold pace (transport/pace/): a process that knows nothing of the platform yet lets one more
 * request in flight per answer (the slow start), on here as in production. Through n8n's real
 * execution machinery against the emulator in real time.
 *
 * - A run the platform waits on (Execute, Wait for Completion: up to 100 s) stops counting
 *   against the slow start once the platform let it through: a chat 2 s later gets its first
 *   piece at once, and an editor lookup is answered rather than told the key is held.
 * - What the slow start protects stays protected: Batch Size against a credential far above the
 *   platform's rate costs one or two refusals, not one per request.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

const CHAT = 1;
const TEXT = 3;
let emu: PlatformEmulator;
const saved = { ...PACING };

useEmulator({ quiet: true }, (started) => (emu = started));
// the slow start as shipped (the integration set-up turns it off for the other files)
beforeEach(() => (PACING.slowStartAnswers = saved.slowStartAnswers));
afterEach(() => Object.assign(PACING, saved));

const waitForRun: INodeParameters = {
	resource: 'agent',
	operation: 'execute',
	agentId: byId(TEXT),
	responseMode: 'wait',
	answers: { mappingMode: 'defineBelow', value: { topic: 'otters', tone: 'casual' } },
};
const isExecute = (agentId: number) => (r: { method: string; path: string }) =>
	r.method === 'POST' && r.path === `/agents/${agentId}/execute`;

describe('a cold pace beside a run the platform waits on', () => {
	it('a chat 2 s after a 30 s Wait gets its first piece at once; an editor lookup is answered', async () => {
		emu.configureAgent(TEXT, { executionSeconds: 30 });
		emu.configureAgent(CHAT, { executionSeconds: 2 });
		const credentials = credentialsFor(emu, 1);
		// a schedule's Execute (Wait): the platform waits on the request for the run's 30 s
		const waitingRun = runNode({
			parameters: waitForRun,
			credentials,
			mode: 'trigger',
			cancelAfterMs: 9000,
		});
		await emu.waitFor(() => emu.requests.some(isExecute(TEXT)), 10_000);
		await new Promise((resolve) => setTimeout(resolve, 2000));

		const chatAt = Date.now();
		let firstPieceAt: number | undefined;
		const chat = runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(CHAT),
				message: 'Hello there, agent',
				...emu.firstOptions(CHAT),
				responseMode: 'stream',
			},
			credentials,
			streaming: {
				onChunk: (chunk) => (firstPieceAt ??= chunk.type === 'item' ? Date.now() : undefined),
			},
		});
		const lookup = listSearch('searchAgents', {
			parameters: { resource: 'agent', operation: 'get' },
			credentials,
		});
		const found = await lookup;
		expect(found.results.length).toBeGreaterThan(0);
		const { error } = await chat;
		expect(error).toBeUndefined();
		// not after the run the platform waits on (cancelled at 9 s): within the 3 s a person waits for a first piece
		expect(firstPieceAt! - chatAt).toBeLessThan(3000);
		const { cancelled } = await waitingRun;
		expect(cancelled).toBe(true);
		// each run started once
		expect(emu.requests.filter(isExecute(TEXT))).toHaveLength(1);
		expect(emu.requests.filter(isExecute(CHAT))).toHaveLength(1);
	}, 30_000);
});

describe('a cold pace, Batch Size, a credential far above the platform', () => {
	it('Batch Size 10 at 1000 a second against a platform at 5 a second: one or two refusals', async () => {
		const SCALE = 5;
		PACING.documentedRate = saved.documentedRate * SCALE;
		PACING.learnMinMs = saved.learnMinMs / SCALE;
		emu.setFaults({ rateLimitPerSecond: SCALE, rateLimitBurst: 1, retryAfterSeconds: 60 / SCALE });
		const ITEMS = 10;
		const { outputs, error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'get',
				agentId: byId('={{ $json.agentId }}'),
				batching: { batchSize: ITEMS },
			},
			items: Array.from({ length: ITEMS }, () => ({ json: { agentId: CHAT } })),
			credentials: credentialsFor(emu, 1000 * SCALE),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(ITEMS);
		const gets = emu.requests.filter((r) => r.path === `/agents/${CHAT}`);
		if (process.env.PACE_DEBUG)
			console.log(
				emu.requests
					.map((r) => `${r.at - gets[0].at} ${r.method} ${r.path} ${r.status}`)
					.join('\n'),
			);
		const refused = gets.filter((r) => r.status === 429).length;
		expect(refused).toBeGreaterThanOrEqual(1);
		expect(refused).toBeLessThanOrEqual(2);
		expect(gets).toHaveLength(ITEMS + refused);
	}, 40_000);
});
