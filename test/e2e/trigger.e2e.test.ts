/**
 * Agent Platform Trigger inside real n8n 1.x and 2.x, with the packed package installed as n8n's
 * community installer would, against the emulator (which POSTs an agent's final response to the
 * agent's active webhooks when a run finishes).
 *
 * One n8n per line, started once (and restarted once, by the restart test). The tests share it
 * and run in order: activation, deliveries, a second workflow on the same agent, the status
 * filter, a restart, a webhook deleted behind n8n's back, deactivation, "Listen for test event",
 * and an http URL the platform refuses.
 * Run: npx jest --selectProjects e2e --runInBand test/e2e/trigger.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 * @slow (minutes: started first when jest has no times of a run before)
 * @lines 1.x 2.x (n8n 1.x and 2.x register and restore a trigger's webhooks each its own way)
 */
import { type PlatformEmulator, type StoredWebhook } from '../../dev/emulator';
import { N8nInstance, log, waitFor } from '../../dev/n8n/harness';
import {
	API_KEY,
	WORKSPACE_ID,
	TRIGGER_NODE,
	TriggerSuite,
	WorkflowKey,
	Execution,
	startTriggerSuite,
	itemsOf,
} from './trigger.shared';
import { describeEachLine } from './fixtures';

describeEachLine()('n8n $line ($version): Agent Platform Trigger', (line) => {
	let suite: TriggerSuite;
	let emu: PlatformEmulator;
	let httpsEmu: PlatformEmulator;
	let n8n: N8nInstance;
	/** Text agents: one shared by main and second, one for the filter, one for "listen". */
	let agentX: number;
	let agentY: number;
	let agentZ: number;
	const started = Date.now();

	const productionUrl = (key: WorkflowKey) =>
		`${n8n.baseUrl}/webhook/${suite.webhookId(key)}/webhook`;
	const testUrl = (key: WorkflowKey) =>
		`${n8n.baseUrl}/webhook-test/${suite.webhookId(key)}/webhook`;
	/** The emulator's webhooks registered for an n8n URL (whatever the secret in their query string). */
	const webhooksAt = (url: string, platform = emu): StoredWebhook[] =>
		[...platform.state.webhooks.values()].filter((w) => w.url.split('?')[0] === url);
	const onlyWebhookAt = (url: string): StoredWebhook => {
		const found = webhooksAt(url);
		expect(found).toHaveLength(1);
		return found[0];
	};

	beforeAll(async () => {
		suite = await startTriggerSuite(line);
		({ emu, httpsEmu, n8n, agentX, agentY, agentZ } = suite);
		log(
			`n8n ${line.version}: trigger suite set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	});

	afterAll(async () => {
		await suite?.release();
		await emu?.stop();
		await httpsEmu?.stop();
		log(`n8n ${line.version}: trigger suite took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	/** Runs an agent on the emulator (as a user of the platform would) and returns the run's id. */
	async function runAgent(agentId: number): Promise<number> {
		const res = await fetch(`${emu.url}/agents/${agentId}/execute`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${API_KEY}`,
				'x-workspace-id': WORKSPACE_ID,
				'content-type': 'application/json',
				accept: 'application/json',
			},
			body: JSON.stringify({ answers: { topic: 'webhooks', tone: 'formal' } }),
		});
		expect(res.status).toBe(200);
		const body = (await res.json()) as { responses: Array<{ id: number }> };
		return body.responses[0].id;
	}

	async function executionsOf(key: WorkflowKey): Promise<Execution[]> {
		return (await n8n.getExecutions(suite.workflowId(key))) as unknown as Execution[];
	}

	/** Waits until the workflow has `count` finished executions; returns them, oldest first. */
	async function waitForExecutions(key: WorkflowKey, count: number): Promise<Execution[]> {
		const done = await waitFor(
			`${count} finished execution(s) of workflow ${key}`,
			async () => {
				const executions = await executionsOf(key);
				const finished = executions.filter((e) => e.status === 'success');
				return finished.length >= count ? executions : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 300 },
		);
		expect(done).toHaveLength(count);
		return [...done].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * Activates a workflow through the public API and returns the activation error n8n reports
	 * for it, if any. n8n 1.x activates during the call and answers an error with HTTP 400; n8n 2.x
	 * publishes in the background and reports a failed trigger in the workflow's publication status.
	 */
	async function activationError(key: WorkflowKey): Promise<string | undefined> {
		try {
			await n8n.activate(suite.workflowId(key));
		} catch (error) {
			return (error as Error).message;
		}
		if (line.line === '1.x') return undefined;
		await n8n.login();
		const status = await waitFor(`the publication of workflow ${key} to settle`, async () => {
			const answer = await n8n.rest<{
				status: string;
				triggers: Array<{ errorMessage: string | null }>;
			}>('GET', `/workflows/${suite.workflowId(key)}/publication-status`);
			return ['published', 'partial', 'failed'].includes(answer.status) ? answer : undefined;
		});
		const errors = status.triggers.map((t) => t.errorMessage).filter(Boolean);
		return errors.length ? errors.join('\n') : undefined;
	}

	test('activating the workflow through the public API leaves exactly one webhook with its URL on the platform', async () => {
		expect(await activationError('main')).toBeUndefined();

		await waitFor(
			'the webhook of workflow main',
			() => webhooksAt(productionUrl('main')).length > 0,
		);
		const webhook = onlyWebhookAt(productionUrl('main'));
		expect(webhook).toMatchObject({
			template_id: agentX,
			method: 'POST',
			status: 'active',
			deleted_at: null,
		});
		expect(webhook.url).toMatch(/\?secret=[0-9a-f]{64}$/);
		expect([...emu.state.webhooks.values()]).toHaveLength(1);
	});

	test('a finished run of the agent starts the workflow, with the delivered response as its one item', async () => {
		const webhook = onlyWebhookAt(productionUrl('main'));
		const runId = await runAgent(agentX);

		const [execution] = await waitForExecutions('main', 1);
		const delivery = await waitFor('the delivery to be recorded', () =>
			emu.deliveries.find(
				(d) => d.webhookId === webhook.id && (d.body as { id: number }).id === runId,
			),
		);
		expect(delivery.status).toBe(200);
		const items = itemsOf(execution);
		// the delivered record as it came, plus the fields every run item carries whichever node made
		// it (README: Fields a workflow can rely on)
		expect(items).toEqual([
			{
				...(delivery.body as object),
				agent_id: agentX,
				platform_status: 'succeeded',
				generated_files: [],
			},
		]);
		expect(items[0]).toMatchObject({ id: runId, status: 'succeeded', template_id: agentX });
		expect(typeof items[0].output).toBe('string');
		// The secret (in the URL and the workflow's static data) is never in what the workflow gets.
		const secret = new URL(webhook.url).searchParams.get('secret')!;
		expect(JSON.stringify(items)).not.toContain(secret);
	});

	test('a delivery with a wrong or missing secret gets 401 and starts nothing; a right one with any body is accepted', async () => {
		const webhook = onlyWebhookAt(productionUrl('main'));
		const secret = new URL(webhook.url).searchParams.get('secret')!;
		const before = (await executionsOf('main')).length;
		const post = (url: string, body: string, type = 'application/json') =>
			fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
		const payload = JSON.stringify({ id: 1, status: 'succeeded', output: 'forged' });
		const sameLength = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a');

		for (const url of [
			productionUrl('main'),
			`${productionUrl('main')}?secret=`,
			`${productionUrl('main')}?secret=wrong`,
			`${productionUrl('main')}?secret=${sameLength}`,
			`${productionUrl('main')}?secret=${secret}&secret=${secret}`,
		]) {
			const res = await post(url, payload);
			expect({ url, status: res.status }).toEqual({ url, status: 401 });
		}
		// Right secret: accepted at once (200), whatever the body, text included.
		// n8n's answer with the status, so that a refusal says what n8n said
		const answer = async (res: Response) => ({ status: res.status, body: await res.text() });
		const text = await post(webhook.url, 'the run is done', 'text/plain');
		expect(await answer(text)).toMatchObject({ status: 200 });
		const array = await post(webhook.url, '[1,2]');
		expect(await answer(array)).toMatchObject({ status: 200 });

		// The two accepted ones run, and nothing else did: the refused ones came first.
		const executions = await waitForExecutions('main', before + 2);
		const newest = executions.slice(before).map((e) => itemsOf(e));
		expect(newest).toEqual(
			expect.arrayContaining([[{ body: 'the run is done' }], [{ body: [1, 2] }]]),
		);
	});

	test('two workflows on the same agent: each its own URL and exactly one webhook, each started once per run', async () => {
		expect(await activationError('second')).toBeUndefined();
		await waitFor(
			'the webhook of workflow second',
			() => webhooksAt(productionUrl('second')).length > 0,
		);
		const main = onlyWebhookAt(productionUrl('main'));
		const second = onlyWebhookAt(productionUrl('second'));
		expect(main.id).not.toBe(second.id);
		expect([...emu.state.webhooks.values()].filter((w) => w.template_id === agentX)).toHaveLength(
			2,
		);

		const mainBefore = (await executionsOf('main')).length;
		const runId = await runAgent(agentX);
		const mainRuns = await waitForExecutions('main', mainBefore + 1);
		const [secondRun] = await waitForExecutions('second', 1);
		expect(itemsOf(mainRuns[mainRuns.length - 1])).toEqual([
			expect.objectContaining({ id: runId }),
		]);
		// "Include Headers": the delivery's headers come along, under `headers`.
		const [item] = itemsOf(secondRun);
		expect(item).toMatchObject({ id: runId, status: 'succeeded' });
		expect(item.headers).toMatchObject({ 'content-type': 'application/json' });
	});

	test('the status filter: a delivery of another status is answered 200 and starts nothing', async () => {
		expect(await activationError('filtered')).toBeUndefined();
		await waitFor(
			'the webhook of workflow filtered',
			() => webhooksAt(productionUrl('filtered')).length > 0,
		);
		const webhook = onlyWebhookAt(productionUrl('filtered'));

		emu.configureAgent(agentY, { fail: 'the model gave up' });
		const failedRun = await runAgent(agentY);
		const refused = await waitFor('the delivery of the failed run', () =>
			emu.deliveries.find(
				(d) => d.webhookId === webhook.id && (d.body as { id: number }).id === failedRun,
			),
		);
		expect(refused.status).toBe(200);
		expect(refused.body).toMatchObject({ status: 'failed' });

		emu.configureAgent(agentY, { fail: false });
		const goodRun = await runAgent(agentY);
		const [execution] = await waitForExecutions('filtered', 1);
		expect(itemsOf(execution)).toEqual([
			expect.objectContaining({ id: goodRun, status: 'succeeded' }),
		]);
	});

	test('stopping and restarting n8n leaves exactly one webhook per workflow, and deliveries still pass', async () => {
		const before = {
			main: onlyWebhookAt(productionUrl('main')).id,
			second: onlyWebhookAt(productionUrl('second')).id,
			filtered: onlyWebhookAt(productionUrl('filtered')).id,
		};
		await n8n.stop();
		const mark = emu.requests.length;
		await n8n.start();
		if (line.line === '1.x') {
			// 1.x runs every active trigger's checkExists at start-up (2.x keeps its webhook
			// registrations across restarts and asks the platform nothing).
			await waitFor('the three active triggers to check their webhooks', () => {
				const listed = (agent: number) =>
					emu.requests
						.slice(mark)
						.filter(
							(r) =>
								r.method === 'GET' && r.path === `/agents/${agent}/webhooks` && r.status === 200,
						).length;
				return listed(agentX) >= 2 && listed(agentY) >= 1;
			});
		}

		// Deliveries still pass the secret check: each workflow's secret survived the restart.
		const mainBefore = (await executionsOf('main')).length;
		const secondBefore = (await executionsOf('second')).length;
		const runId = await runAgent(agentX);
		const mainRuns = await waitForExecutions('main', mainBefore + 1);
		const secondRuns = await waitForExecutions('second', secondBefore + 1);
		expect(itemsOf(mainRuns[mainRuns.length - 1])).toEqual([
			expect.objectContaining({ id: runId }),
		]);
		expect(itemsOf(secondRuns[secondRuns.length - 1])).toEqual([
			expect.objectContaining({ id: runId }),
		]);

		expect({
			main: onlyWebhookAt(productionUrl('main')).id,
			second: onlyWebhookAt(productionUrl('second')).id,
			filtered: onlyWebhookAt(productionUrl('filtered')).id,
		}).toEqual(before);
		expect(emu.state.webhooks.size).toBe(3);
		expect(
			emu.requests.slice(mark).filter((r) => r.method !== 'GET' && r.path.includes('webhooks')),
		).toEqual([]);
	});

	test("a webhook deleted on the platform behind n8n's back: deactivating takes the 404 as gone, re-activating registers one anew", async () => {
		const lost = onlyWebhookAt(productionUrl('main'));
		const removed = await fetch(`${emu.url}/webhooks/${lost.id}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${API_KEY}`, 'x-workspace-id': WORKSPACE_ID },
		});
		expect(removed.status).toBe(200);
		const mark = emu.requests.length;

		await n8n.deactivate(suite.workflowId('main'));
		await waitFor('the deactivation to ask the platform to delete the webhook', () =>
			emu.requests
				.slice(mark)
				.find((r) => r.method === 'DELETE' && r.path === `/webhooks/${lost.id}`),
		);
		expect(await activationError('main')).toBeUndefined();
		await waitFor(
			'a new webhook of workflow main',
			() => webhooksAt(productionUrl('main')).length > 0,
		);
		expect(onlyWebhookAt(productionUrl('main')).id).not.toBe(lost.id);
		expect(emu.state.webhooks.size).toBe(3);
	});

	test("deactivating a workflow deletes its webhook and leaves the other workflow's", async () => {
		await n8n.deactivate(suite.workflowId('main'));
		await waitFor(
			'the webhook of workflow main to go',
			() => webhooksAt(productionUrl('main')).length === 0,
		);
		onlyWebhookAt(productionUrl('second'));

		await n8n.deactivate(suite.workflowId('second'));
		await n8n.deactivate(suite.workflowId('filtered'));
		await waitFor('every webhook to go', () => emu.state.webhooks.size === 0);
	});

	test('"Listen for test event" registers the test URL, runs once on a delivery, then removes its webhook', async () => {
		await n8n.login();
		const workflowData = await n8n.rest<Record<string, unknown>>(
			'GET',
			`/workflows/${suite.workflowId('listen')}`,
		);
		const answer = await n8n.rest<{ waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${suite.workflowId('listen')}/run`,
			{
				workflowData,
				triggerToStartFrom: { name: TRIGGER_NODE },
			},
		);
		expect(answer.waitingForWebhook).toBe(true);

		await waitFor('the test webhook', () => webhooksAt(testUrl('listen')).length > 0);
		const webhook = onlyWebhookAt(testUrl('listen'));
		expect(webhooksAt(productionUrl('listen'))).toHaveLength(0);

		const runId = await runAgent(agentZ);
		await waitFor(
			'the test webhook to be removed after its run',
			() => webhooksAt(testUrl('listen')).length === 0,
		);
		const delivery = await waitFor('the delivery to be recorded', () =>
			emu.deliveries.find((d) => d.webhookId === webhook.id),
		);
		expect(delivery).toMatchObject({ status: 200, body: expect.objectContaining({ id: runId }) });
		const [execution] = await waitForExecutions('listen', 1);
		expect(execution.mode).toBe('manual');
		expect(itemsOf(execution)).toEqual([
			expect.objectContaining({ id: runId, status: 'succeeded' }),
		]);
		expect(emu.state.webhooks.size).toBe(0);
	});

	test('an http webhook URL refused by the platform: the activation error says only https is accepted and how to set WEBHOOK_URL', async () => {
		const refusal = await activationError('https');
		expect(refusal).toBeDefined();
		expect(refusal).toMatch(/accepts only https webhook URLs/);
		expect(refusal).toContain(productionUrl('https'));
		expect(refusal).toMatch(/WEBHOOK_URL environment variable to n8n's public https address/);
		const posted = httpsEmu.requests.filter(
			(r) => r.method === 'POST' && r.path === `/agents/${agentX}/webhooks`,
		);
		// (2.x retries a failed trigger activation a few times before it reports it.)
		expect(posted.length).toBeGreaterThanOrEqual(1);
		expect(posted.every((r) => r.status === 400)).toBe(true);
		expect(httpsEmu.state.webhooks.size).toBe(0);
	});
});
