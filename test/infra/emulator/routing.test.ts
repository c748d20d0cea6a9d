/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: authentication, routing and the resource templates.
 */
import { Json, call, emu, keys, sorted } from './shared';

describe('auth and routing', () => {
	it('403 on a missing or wrong key, 422 on a missing or foreign workspace, 404 on unknown routes', async () => {
		const url = `${emu.url}/agents`;
		let res = await fetch(url, { headers: { 'x-workspace-id': emu.workspaceId } });
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: 'Invalid authentication' });

		res = await fetch(url, {
			headers: { Authorization: 'Bearer nope', 'x-workspace-id': emu.workspaceId },
		});
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: 'Invalid authentication' });

		res = await fetch(url, { headers: { Authorization: `Bearer ${emu.apiKey}` } });
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({ message: 'The x-workspace-id header is required.' });

		res = await fetch(url, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': '999' },
		});
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({
			message: 'The selected workspace is invalid or you do not have access to it.',
		});

		const nf = await call('/no/such/route');
		expect(nf.status).toBe(404);
		expect(nf.json).toEqual({ message: 'Not Found' });

		expect((await call('/agents/99999')).json).toEqual({ message: 'Agent not found' });
		expect((await call('/agents/99999')).status).toBe(404);
		expect((await call('/agent-responses/abc')).status).toBe(404);
		expect((await call('/files/123456')).json).toEqual({ message: 'File not found' });
	});

	it('records every request with the status answered', async () => {
		emu.clearRequests();
		await fetch(`${emu.url}/agents?q=Chat&page=2`, {
			headers: { Authorization: 'Bearer wrong', 'x-workspace-id': '42' },
		});
		await call('/memories', { body: { memory: 'recorded' } });
		expect(emu.requests).toHaveLength(2);
		const [a, b] = emu.requests;
		expect(a).toMatchObject({
			method: 'GET',
			path: '/agents',
			query: { q: 'Chat', page: '2' },
			status: 403,
			body: null,
		});
		expect(a.headers.authorization).toBe('Bearer wrong');
		expect(typeof a.at).toBe('number');
		expect(b).toMatchObject({
			method: 'POST',
			path: '/memories',
			body: { memory: 'recorded' },
			status: 201,
		});
	});
});

describe('resources', () => {
	it('lists with data/meta, filters and caps per_page', async () => {
		const r = (await call('/resources')).json;
		expect(keys(r)).toEqual(['data', 'meta']);
		expect(r.meta).toEqual({
			current_page: 1,
			from: 1,
			last_page: 3,
			per_page: 15,
			to: 15,
			total: 40,
		});
		expect(keys(r.data[0])).toEqual(
			sorted(['id', 'title', 'description', 'created_at', 'updated_at', 'type']),
		);
		expect(typeof r.data[0].id).toBe('string');
		const type = r.data[0].type;
		const byType = (await call(`/resources?type=${type}&per_page=100`)).json;
		expect(byType.data.every((x: Json) => x.type === type)).toBe(true);
		expect(byType.meta.total).toBe(10);
		expect((await call('/resources?per_page=1000')).json.meta.per_page).toBe(100);
		expect((await call('/resources?q=FEATURED')).json.meta.total).toBe(8);
		expect((await call('/resources?page=5')).json.meta).toMatchObject({
			from: null,
			to: null,
			current_page: 5,
		});
	});
});
