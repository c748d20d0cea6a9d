/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: webhooks and their deliveries.
 */
import http from 'node:http';
import { startEmulator } from '../../../dev/emulator';
import { readBody, startLoopbackServer } from '../../../dev/loopback';
import {
	Json,
	LARAVEL_KEYS,
	MICRO_TS,
	call,
	chatBody,
	emu,
	firstAgent,
	keys,
	sorted,
} from './shared';

describe('webhooks', () => {
	it('creates (201), validates (400), lists, deletes, and delivers a finished run to the receiver', async () => {
		const received: Array<{
			method: string;
			headers: http.IncomingHttpHeaders;
			body: string;
			url: string;
		}> = [];
		const receiver = await startLoopbackServer(async (req, res) => {
			const body = (await readBody(req)).toString();
			received.push({ method: req.method ?? '', headers: req.headers, body, url: req.url ?? '' });
			res.writeHead(200).end('ok');
		});
		const { port } = receiver;
		try {
			const agent = await firstAgent('chat');
			const created = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: `http://127.0.0.1:${port}/hook?secret=s3`, method: 'POST', status: 'active' },
			});
			expect(created.status).toBe(201);
			expect(keys(created.json)).toEqual(
				sorted([
					'id',
					'template_id',
					'user_id',
					'url',
					'method',
					'status',
					'created_at',
					'updated_at',
				]),
			);
			expect(created.json.created_at).toMatch(MICRO_TS);
			const inactive = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: `http://127.0.0.1:${port}/never`, method: 'POST', status: 'inactive' },
			});
			expect(inactive.status).toBe(201);

			const bad = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: 'not a url', method: 'PUT', status: 'on' },
			});
			expect(bad.status).toBe(400);
			expect(bad.json).toEqual({
				error: 'Validation failed',
				messages: {
					url: ['The url field must be a valid URL.'],
					method: ['The selected method is invalid.'],
					status: ['The selected status is invalid.'],
				},
			});

			const list = (await call(`/agents/${agent.id}/webhooks`)).json;
			expect(keys(list)).toEqual(LARAVEL_KEYS);
			expect(list.total).toBe(2);
			expect(keys(list.data[0])).toEqual(
				sorted([
					'id',
					'template_id',
					'user_id',
					'url',
					'method',
					'success_count',
					'failure_count',
					'status',
					'created_at',
					'updated_at',
					'deleted_at',
				]),
			);
			expect((await call('/webhooks')).json.total).toBeGreaterThanOrEqual(2);

			const run = await call(`/agents/${agent.id}/execute`, {
				body: chatBody(agent, 'deliver me', { wait_execution: true }),
			});
			await emu.waitFor(() => received.length >= 1);
			expect(received).toHaveLength(1);
			expect(received[0].method).toBe('POST');
			expect(received[0].url).toBe('/hook?secret=s3');
			expect(received[0].headers['content-type']).toBe('application/json');
			expect(received[0].headers['user-agent']).toBe('AgentPlatform-Webhooks/1.0');
			expect(JSON.parse(received[0].body)).toEqual(run.json.responses[0]);
			await emu.waitFor(() => emu.deliveries.some((d) => d.webhookId === created.json.id));
			expect(emu.deliveries.find((d) => d.webhookId === created.json.id)).toMatchObject({
				status: 200,
				url: `http://127.0.0.1:${port}/hook?secret=s3`,
			});
			const counted = (await call(`/agents/${agent.id}/webhooks`)).json.data.find(
				(w: Json) => w.id === created.json.id,
			);
			expect(counted).toMatchObject({ success_count: 1, failure_count: 0 });

			expect((await call(`/webhooks/${created.json.id}`, { method: 'DELETE' })).json).toEqual({
				message: 'Webhook deleted',
			});
			expect((await call(`/webhooks/${inactive.json.id}`, { method: 'DELETE' })).status).toBe(200);
			expect((await call(`/webhooks/${created.json.id}`, { method: 'DELETE' })).status).toBe(404);
		} finally {
			await receiver.close();
		}
	});

	it('counts a failed delivery and requires https when configured', async () => {
		const strict = await startEmulator({
			quiet: true,
			timeScale: 50,
			requireHttpsWebhooks: true,
			seed: { agents: 4 },
		});
		try {
			const r = await call(
				'/agents/1/webhooks',
				{ body: { url: 'http://127.0.0.1:9/x', method: 'POST' } },
				strict,
			);
			expect(r.status).toBe(400);
			expect(r.json).toEqual({
				error: 'Validation failed',
				messages: { url: ['The url field must start with https://.'] },
			});
			const ok = await call(
				'/agents/1/webhooks',
				{ body: { url: 'https://127.0.0.1:9/x', method: 'POST' } },
				strict,
			);
			expect(ok.status).toBe(201);
			const agent = (await call('/agents/1', {}, strict)).json;
			await call(
				'/agents/1/execute',
				{ body: chatBody(agent, 'x', { wait_execution: true }) },
				strict,
			);
			await strict.waitFor(() => strict.deliveries.length === 1);
			expect(strict.deliveries[0].status).toBe(0);
			expect(strict.state.webhooks.get(ok.json.id)!.failure_count).toBe(1);
		} finally {
			await strict.stop();
		}
	});
});
