/**
 * Lists ask for the largest page the endpoint may honour (every page is a request) and read the
 * envelope's `per_page` to see what the platform gave, keeping it for the process
 * (transport/paginate.ts). The emulator, like Laravel, caps an undocumented maximum and answers
 * with the page size it used.
 */
import type { PlatformEmulator } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';

const agentsList = (emu: PlatformEmulator) =>
	emu.requests.filter((r) => r.method === 'GET' && r.path === '/agents');

async function allAgents(emu: PlatformEmulator) {
	return await runNode({
		parameters: { resource: 'agent', operation: 'getAll', returnAll: true },
		credentials: credentialsFor(emu),
	});
}

describe('page size', () => {
	it('40 agents are one request, not three pages of 15', async () => {
		const emu = await startEmulator({ quiet: true, seed: { agents: 40 } });
		try {
			const { outputs, error } = await allAgents(emu);
			expect(error).toBeUndefined();
			expect(outputs[0]).toHaveLength(40);
			expect(agentsList(emu).map((r) => r.query.per_page)).toEqual(['100']);
		} finally {
			await emu.stop();
		}
	});

	it('a platform that gives 50 of the 100 asked: read from the envelope, kept for the next list', async () => {
		const emu = await startEmulator({ quiet: true, seed: { agents: 120 }, maxPerPage: 50 });
		try {
			const first = await allAgents(emu);
			expect(first.error).toBeUndefined();
			expect(first.outputs[0]).toHaveLength(120);
			expect(new Set(first.outputs[0].map((item) => item.json.id)).size).toBe(120);
			expect(agentsList(emu).map((r) => [r.query.page, r.query.per_page])).toEqual([
				['1', '100'],
				['2', '50'],
				['3', '50'],
			]);

			emu.clearRequests();
			const second = await allAgents(emu);
			expect(second.outputs[0]).toHaveLength(120);
			expect(agentsList(emu).map((r) => r.query.per_page)).toEqual(['50', '50', '50']);
		} finally {
			await emu.stop();
		}
	});

	it('a platform that refuses the larger page with a 422: one refusal per process, then 15 a page', async () => {
		const emu = await startEmulator({
			quiet: true,
			seed: { agents: 40 },
			maxPerPage: 50,
			strictPerPage: true,
		});
		try {
			const first = await allAgents(emu);
			expect(first.error).toBeUndefined();
			expect(first.outputs[0]).toHaveLength(40);
			expect(agentsList(emu).map((r) => [r.query.page, r.query.per_page, r.status])).toEqual([
				['1', '100', 422],
				['1', '15', 200],
				['2', '15', 200],
				['3', '15', 200],
			]);

			emu.clearRequests();
			const second = await allAgents(emu);
			expect(second.outputs[0]).toHaveLength(40);
			expect(agentsList(emu).map((r) => [r.query.per_page, r.status])).toEqual([
				['15', 200],
				['15', 200],
				['15', 200],
			]);
		} finally {
			await emu.stop();
		}
	});
});
