/**
 * Resource Template → Get Many against the emulator, through n8n's real execution machinery:
 * the `data` + `meta` envelope, Return All and Limit, and the filters.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

const SEEDED = 120;
let emu: PlatformEmulator;

useEmulator({ quiet: true, seed: { resources: SEEDED } }, (started) => (emu = started));

const resourceRequests = () => emu.requests.filter((r) => r.path === '/resources');

async function run(extra: INodeParameters) {
	return await runNode({
		parameters: { resource: 'resourceTemplate', operation: 'getAll', ...extra },
		credentials: credentialsFor(emu),
	});
}

describe('Resource Template → Get Many', () => {
	it('Return All asks for 100 a page, follows meta.last_page and returns every template', async () => {
		const { outputs, error } = await run({ returnAll: true });

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(
			Array.from({ length: SEEDED }, (_, i) => String(i + 1)),
		);
		expect(resourceRequests().map((r) => r.query)).toEqual(
			Array.from({ length: Math.ceil(SEEDED / 100) }, (_, i) => ({
				page: String(i + 1),
				per_page: '100',
			})),
		);
		expect(Object.keys(outputs[0][0].json)).toEqual(
			expect.arrayContaining(['id', 'title', 'description', 'created_at', 'updated_at']),
		);
	});

	it('Limit 7 asks for one page of 7 and returns 7', async () => {
		const { outputs } = await run({ returnAll: false, limit: 7 });

		expect(outputs[0].map((i) => i.json.id)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
		expect(resourceRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '7' }]);
	});

	it('passes the search text and type to the platform', async () => {
		const expected = [...emu.state.resources.values()]
			.filter(
				(r) =>
					r.type === 'prompt' &&
					/marketing/i.test(`${r.title} ${r.description} ${r.long_description}`),
			)
			.map((r) => r.id);
		expect(expected.length).toBeGreaterThan(0);

		const { outputs, error } = await run({
			returnAll: true,
			filters: { q: 'marketing', type: 'prompt' },
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(expected);
		expect(resourceRequests()[0].query).toEqual({
			q: 'marketing',
			type: 'prompt',
			page: '1',
			per_page: '100',
		});
	});
});
