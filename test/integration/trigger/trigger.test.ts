/**
 * The Agent Platform Trigger against the emulator over loopback, as far as the in-process harness
 * (test/infra/n8n/) reaches: it runs execute, listSearch and loadOptions contexts, not n8n's
 * hook and webhook contexts, so the lifecycle (checkExists/create/delete) and webhook() run
 * end-to-end in real n8n (test/e2e/trigger.e2e.test.ts). Here: the trigger's agent picker through
 * n8n's real LoadOptionsContext, and the trigger's secret, URL matching and item shaping against
 * what the platform really stores and delivers.
 */
import type { IncomingHttpHeaders } from 'node:http';

import { AgentPlatformTrigger } from '../../../nodes/AgentPlatform/AgentPlatformTrigger.node';
import {
	deliveryJson,
	newWebhookSecret,
	planWebhooks,
	secretMatches,
	secretOf,
	urlWithSecret,
} from '../../../nodes/AgentPlatform/helpers/trigger/delivery';
import type { PlatformEmulator } from '../../../dev/emulator';
import { DELIVERY_USER_AGENT } from '../../../dev/emulator';
import { readBody, startLoopbackServer, type LoopbackServer } from '../../../dev/loopback';
import { credentialsFor } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { useEmulator } from '../../infra/useEmulator';

interface Received {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/** Stands in for n8n's webhook endpoint: records every delivery and answers 200. */
class Receiver {
	readonly received: Received[] = [];
	private server?: LoopbackServer;
	url = '';

	async start(): Promise<void> {
		this.server = await startLoopbackServer(async (req, res) => {
			const body = await readBody(req);
			this.received.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body,
			});
			res
				.writeHead(200, { 'content-type': 'application/json' })
				.end('{"message":"Workflow was started"}');
		});
		// The shape of n8n's production webhook URL for a trigger node.
		this.url = `${this.server.origin}/webhook/5d0b7a7e-0001-4c1e-9a00-000000000001/webhook`;
	}

	async stop(): Promise<void> {
		await this.server?.close();
	}
}

let emu: PlatformEmulator;
let receiver: Receiver;

useEmulator({ timeScale: 50, quiet: true }, (started) => (emu = started));
beforeAll(async () => {
	receiver = new Receiver();
	await receiver.start();
});
afterAll(async () => receiver.stop());

async function platform<T>(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const res = await fetch(`${emu.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${emu.apiKey}`,
			'x-workspace-id': emu.workspaceId,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as T };
}

describe("the trigger's agent picker", () => {
	it("lists the platform's agents through n8n's LoadOptionsContext, searched by the platform", async () => {
		const trigger = new AgentPlatformTrigger();
		const parameters = { agentId: { __rl: true, mode: 'list', value: '' } };
		const all = await listSearch('searchAgents', {
			parameters,
			credentials: credentialsFor(emu),
			nodeType: trigger,
		});
		expect(all.results.length).toBeGreaterThan(0);
		expect(all.results[0]).toMatchObject({ value: '1' });

		const found = await listSearch('searchAgents', {
			parameters,
			credentials: credentialsFor(emu),
			nodeType: trigger,
			filter: 'Text Summarizer',
		});
		expect(found.results.map((r) => r.name)).toContain(
			'Text Summarizer (text) — Writes and rewrites text (Text Summarizer)',
		);
		expect(emu.requests.filter((r) => r.path === '/agents').pop()?.query.q).toBe('Text Summarizer');
	});
});

describe('secret, URL matching and items, against what the platform stores and delivers', () => {
	const textAgent = () =>
		[...emu.state.agents.values()].find((a) => a.type === 'text' && !a.failMessage)!.id;

	it('the registered URL comes back from the platform as registered: recognised, secret intact', async () => {
		const agentId = textAgent();
		const secret = newWebhookSecret();
		const created = await platform<{ id: number }>('POST', `/agents/${agentId}/webhooks`, {
			url: urlWithSecret(receiver.url, secret),
			method: 'POST',
			status: 'active',
		});
		expect(created.status).toBe(201);
		const other = await platform<{ id: number }>('POST', `/agents/${agentId}/webhooks`, {
			url: urlWithSecret(receiver.url.replace('0001/webhook', '0002/webhook'), 'another-workflow'),
			method: 'POST',
		});
		expect(other.status).toBe(201);

		const list = await platform<{ data: Array<Record<string, unknown>> }>(
			'GET',
			`/agents/${agentId}/webhooks`,
		);
		expect(list.body.data).toHaveLength(2);
		expect(planWebhooks(list.body.data as never, receiver.url, {})).toEqual({
			keep: { id: String(created.body.id), secret },
			remove: [],
		});
		expect(secretOf(list.body.data.find((w) => w.id === other.body.id)!.url)).toBe(
			'another-workflow',
		);
	});

	it('a finished run is delivered with the secret in the query and the Agent response as the body', async () => {
		const agentId = textAgent();
		const before = receiver.received.length;
		const run = await platform<{ responses: Array<{ id: number }> }>(
			'POST',
			`/agents/${agentId}/execute`,
			{
				answers: { topic: 'triggers', tone: 'casual' },
			},
		);
		expect(run.status).toBe(200);
		const runId = run.body.responses[0].id;
		await emu.waitFor(() => receiver.received.length >= before + 2);

		const mine = receiver.received.slice(before).find((r) => r.url.includes('0001/webhook'))!;
		expect(mine.method).toBe('POST');
		expect(mine.headers['user-agent']).toBe(DELIVERY_USER_AGENT);
		const query = new URL(mine.url, 'http://receiver').searchParams;
		const stored = [...emu.state.webhooks.values()].find((w) => w.url.includes('0001/webhook'))!;
		expect(secretMatches(query.get('secret'), secretOf(stored.url))).toBe(true);
		const theirs = receiver.received.slice(before).find((r) => r.url.includes('0002/webhook'))!;
		expect(
			secretMatches(
				new URL(theirs.url, 'http://receiver').searchParams.get('secret'),
				secretOf(stored.url),
			),
		).toBe(false);

		const item = deliveryJson(mine.body, undefined);
		const record = emu.state.runs.get(runId)!;
		expect(item).toMatchObject({
			id: runId,
			status: 'succeeded',
			output: record.output,
			credits: record.credits,
			root_id: record.root_id,
			template_id: agentId,
		});
		// The emulator records a delivery once it has read the answer, a moment after the receiver saw it.
		const deliveriesOfRun = () =>
			emu.deliveries.filter((d) => (d.body as { id: number }).id === runId);
		await emu.waitFor(() => deliveriesOfRun().length === 2);
		expect(deliveriesOfRun().map((d) => d.status)).toEqual([200, 200]);
	});
});
