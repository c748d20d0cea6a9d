/**
 * Webhook operations (Get Many, Create, Delete) against the emulator, through n8n's real
 * execution machinery: what is sent, paging, and the URL and ID checks done before sending.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PlatformEmulator, StoredWebhook } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator, withEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => emu.state.webhooks.clear());

const webhookRequests = () => emu.requests.filter((r) => r.path.includes('webhooks'));

function webhook(operation: string, extra: INodeParameters = {}): INodeParameters {
	return { resource: 'webhook', operation, ...extra };
}

async function run(parameters: INodeParameters, on: PlatformEmulator = emu) {
	return await runNode({ parameters, credentials: credentialsFor(on) });
}

let nextSeedId = 80_000;
/** Webhooks put straight into the emulator's state, in id order. */
function seedWebhooks(count: number, agentId: number): number[] {
	const ids: number[] = [];
	for (let i = 0; i < count; i++) {
		const id = nextSeedId++;
		const stored: StoredWebhook = {
			id,
			template_id: agentId,
			user_id: 7,
			url: `https://receiver.example/hooks/${id}`,
			method: 'POST',
			success_count: 0,
			failure_count: 0,
			status: 'active',
			created_at: '2026-01-01T00:00:00.000000Z',
			updated_at: '2026-01-01T00:00:00.000000Z',
			deleted_at: null,
		};
		emu.state.webhooks.set(id, stored);
		ids.push(id);
	}
	return ids;
}

describe('Webhook → Create', () => {
	it('registers the URL for the agent with POST /agents/{id}/webhooks and returns the webhook', async () => {
		const { outputs, error } = await run(
			webhook('create', {
				agentId: byId(2),
				url: 'https://example.com/hooks/runs',
				method: 'GET',
				status: 'inactive',
			}),
		);

		expect(error).toBeUndefined();
		const [request] = webhookRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/agents/2/webhooks', status: 201 });
		expect(request.body).toEqual({
			url: 'https://example.com/hooks/runs',
			method: 'GET',
			status: 'inactive',
		});
		expect(outputs[0][0].json).toMatchObject({
			template_id: 2,
			url: 'https://example.com/hooks/runs',
			method: 'GET',
			status: 'inactive',
		});
		expect(emu.state.webhooks.get(outputs[0][0].json.id as number)?.template_id).toBe(2);
	});

	it('defaults to POST and active, and accepts a plain http:// URL (the emulator does)', async () => {
		const { outputs, error } = await run(
			webhook('create', { agentId: byId(1), url: 'http://127.0.0.1:9/receiver' }),
		);

		expect(error).toBeUndefined();
		expect(webhookRequests()[0].body).toEqual({
			url: 'http://127.0.0.1:9/receiver',
			method: 'POST',
			status: 'active',
		});
		expect(outputs[0][0].json).toMatchObject({ method: 'POST', status: 'active' });
	});

	it.each([
		[
			'ftp://example.com/hook',
			'The webhook URL "ftp://example.com/hook" must start with http:// or https:// (item 1)',
		],
		['example.com/hook', 'The webhook URL "example.com/hook" is not a valid URL (item 1)'],
		['https://', 'The webhook URL "https://" is not a valid URL (item 1)'],
		['', 'The webhook URL is empty (item 1)'],
	])('refuses the URL %j before sending anything', async (url, message) => {
		const { error } = await run(
			webhook('create', { agentId: byId(1), url: `={{ ${JSON.stringify(url)} }}` }),
		);

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(message);
		expect((error as NodeOperationError).description).toMatch(/https:\/\/ only/);
		expect(emu.requests).toHaveLength(0);
	});

	it('refuses an agent ID that is not a number, sending nothing', async () => {
		const { error } = await run(
			webhook('create', { agentId: byId('={{ "support-bot" }}'), url: 'https://example.com' }),
		);

		expect(error!.message).toBe('The agent "support-bot" is not a valid ID (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('passes on in plain words a platform that accepts https:// only', async () => {
		await withEmulator({ quiet: true, requireHttpsWebhooks: true }, async (strict) => {
			const { error } = await run(
				webhook('create', { agentId: byId(1), url: 'http://example.com/hook' }),
				strict,
			);

			expect(error).toBeInstanceOf(NodeApiError);
			expect(error!.message).toBe(
				'The platform refused the request: Validation failed — url: The url field must start with https://.',
			);
			expect(strict.requests.filter((r) => r.method === 'POST')).toHaveLength(1); // a refused POST is not retried
		});
	});

	it('says in plain words that an unknown agent was not found', async () => {
		const { error } = await run(
			webhook('create', { agentId: byId(987654), url: 'https://example.com/hook' }),
		);

		expect(error!.message).toBe('The platform could not find agent 987654');
	});
});

describe('Webhook → Get Many', () => {
	it("lists every agent's webhooks with GET /webhooks; Return All asks for 100 a page and follows the pages", async () => {
		const ids = [...seedWebhooks(40, 1), ...seedWebhooks(30, 2)];
		const { outputs, error } = await run(webhook('getAll', { returnAll: true }));

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(ids);
		expect(
			webhookRequests().map((r) => `${r.path}?page=${r.query.page}&per_page=${r.query.per_page}`),
		).toEqual([1].map((page) => `/webhooks?page=${page}&per_page=100`));
		expect(outputs[0][0].json).toMatchObject({
			template_id: 1,
			success_count: 0,
			failure_count: 0,
			deleted_at: null,
		});
	});

	it("lists one agent's webhooks with GET /agents/{id}/webhooks", async () => {
		seedWebhooks(3, 1);
		const ofAgent2 = seedWebhooks(2, 2);
		const { outputs, error } = await run(
			webhook('getAll', { scope: 'agent', agentId: byId(2), returnAll: true }),
		);

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual(ofAgent2);
		expect(webhookRequests().map((r) => r.path)).toEqual(['/agents/2/webhooks']);
	});

	it('Limit 7 asks for one page of 7', async () => {
		const ids = seedWebhooks(20, 1);
		const { outputs } = await run(webhook('getAll', { returnAll: false, limit: 7 }));

		expect(outputs[0].map((i) => i.json.id)).toEqual(ids.slice(0, 7));
		expect(webhookRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '7' }]);
	});
});

describe('Webhook → Delete', () => {
	it('deletes with DELETE /webhooks/{id}', async () => {
		const [id, other] = seedWebhooks(2, 1);
		const { outputs, error } = await run(webhook('delete', { webhookId: String(id) }));

		expect(error).toBeUndefined();
		expect(webhookRequests()).toEqual([
			expect.objectContaining({ method: 'DELETE', path: `/webhooks/${id}`, status: 200 }),
		]);
		expect(outputs[0][0].json).toEqual({ id, deleted: true, message: 'Webhook deleted' });
		expect([...emu.state.webhooks.keys()]).toEqual([other]);
	});

	it('treats a webhook the platform does not know (404) as already gone', async () => {
		const { outputs, error } = await run(webhook('delete', { webhookId: '31337' }));

		expect(error).toBeUndefined();
		expect(webhookRequests()).toEqual([expect.objectContaining({ method: 'DELETE', status: 404 })]);
		expect(outputs[0][0].json).toEqual({ id: 31337, deleted: false, alreadyGone: true });
	});

	it('still fails on other errors', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 500 });
		const { error } = await run(webhook('delete', { webhookId: '31337' }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The platform had a problem on its side (HTTP 500)');
	});

	it('refuses a webhook ID that is not a number, sending nothing', async () => {
		const { error } = await run(webhook('delete', { webhookId: 'https://example.com/hook' }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(
			'The webhook "https://example.com/hook" is not a valid ID (item 1)',
		);
		expect(emu.requests).toHaveLength(0);
	});
});
