/**
 * The pure parts of the Agent Platform Trigger: the delivery secret, recognising the node's own
 * webhooks among an agent's, and turning a delivery into an item. The lifecycle against the
 * platform runs in test/integration/trigger/trigger.test.ts and, inside real n8n, test/e2e/trigger.e2e.test.ts.
 */
import {
	DELIVERY_STATUSES,
	SECRET_PARAMETER,
	addressOf,
	deliveryItem,
	deliveryJson,
	newWebhookSecret,
	planWebhooks,
	secretMatches,
	secretOf,
	statusAllowed,
	urlWithSecret,
} from '../../nodes/AgentPlatform/helpers/trigger/delivery';

const PROD = 'http://127.0.0.1:5678/webhook/0b3c7e52-5a8f-4c38-9d55-1f2e3a4b5c6d/webhook';
const TEST = 'http://127.0.0.1:5678/webhook-test/0b3c7e52-5a8f-4c38-9d55-1f2e3a4b5c6d/webhook';
const OTHER_WORKFLOW = 'http://127.0.0.1:5678/webhook/7d1e9f00-1111-4222-8333-444455556666/webhook';

function hook(id: number, url: string, status = 'active') {
	return { id, template_id: 3, url, method: 'POST', status };
}

describe('the delivery secret', () => {
	it('is 32 random bytes in hex, new each time', () => {
		const a = newWebhookSecret();
		const b = newWebhookSecret();
		expect(a).toMatch(/^[0-9a-f]{64}$/);
		expect(b).toMatch(/^[0-9a-f]{64}$/);
		expect(a).not.toBe(b);
	});

	it('matches only the exact secret, whatever the lengths or types', () => {
		const secret = newWebhookSecret();
		expect(secretMatches(secret, secret)).toBe(true);
		const lastCharChanged = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a');
		expect(secretMatches(lastCharChanged, secret)).toBe(false); // same length
		expect(secretMatches(secret.slice(0, 10), secret)).toBe(false); // shorter
		expect(secretMatches(`${secret}00`, secret)).toBe(false); // longer
		expect(secretMatches('', secret)).toBe(false);
		expect(secretMatches(undefined, secret)).toBe(false);
		expect(secretMatches([secret, secret], secret)).toBe(false); // ?secret=…&secret=…
		expect(secretMatches(secret.toUpperCase(), secret)).toBe(false);
	});

	it('never matches when no secret is stored', () => {
		expect(secretMatches('', '')).toBe(false);
		expect(secretMatches('', undefined)).toBe(false);
		expect(secretMatches('anything', undefined)).toBe(false);
	});

	it('rides in the query string of the registered URL, and is read back from it', () => {
		const secret = newWebhookSecret();
		const registered = urlWithSecret(PROD, secret);
		expect(registered).toBe(`${PROD}?${SECRET_PARAMETER}=${secret}`);
		expect(secretOf(registered)).toBe(secret);
		expect(secretOf(PROD)).toBeUndefined();
		expect(secretOf('not a url')).toBeUndefined();
		// an existing query string is kept
		expect(urlWithSecret('https://n8n.example.com/webhook/x/webhook?a=1', 'abc')).toBe(
			'https://n8n.example.com/webhook/x/webhook?a=1&secret=abc',
		);
	});
});

describe('addressOf: one text per address', () => {
	it('ignores the query string, fragment, trailing slash, case of scheme and host, and default ports', () => {
		expect(addressOf(`${PROD}?secret=abc`)).toBe(PROD);
		expect(addressOf(`${PROD}/`)).toBe(PROD);
		expect(addressOf('HTTPS://N8N.Example.COM:443/webhook/x/webhook#top')).toBe(
			'https://n8n.example.com/webhook/x/webhook',
		);
	});
	it('keeps what tells addresses apart', () => {
		expect(addressOf(PROD)).not.toBe(addressOf(TEST));
		expect(addressOf(PROD)).not.toBe(addressOf(OTHER_WORKFLOW));
		expect(addressOf(PROD)).not.toBe(addressOf(PROD.replace('http:', 'https:')));
		expect(addressOf('/webhook/x')).toBeUndefined();
		expect(addressOf(undefined)).toBeUndefined();
	});
});

describe("planWebhooks: which of the agent's webhooks this node keeps", () => {
	it('none on the platform: nothing to keep, nothing to remove', () => {
		expect(planWebhooks([], PROD, {})).toEqual({ keep: undefined, remove: [] });
	});

	it('keeps the stored webhook when the platform still has it (a restart)', () => {
		const plan = planWebhooks([hook(4, urlWithSecret(PROD, 's4'))], PROD, {
			webhookId: '4',
			webhookSecret: 's4',
		});
		expect(plan).toEqual({ keep: { id: '4', secret: 's4' }, remove: [] });
	});

	it('adopts its webhook found by URL when nothing is stored, with the secret from its URL', () => {
		const plan = planWebhooks([hook(9, urlWithSecret(PROD, 's9'))], PROD, {});
		expect(plan).toEqual({ keep: { id: '9', secret: 's9' }, remove: [] });
	});

	it('forgets a stored webhook the platform no longer has', () => {
		expect(planWebhooks([], PROD, { webhookId: '4', webhookSecret: 's4' })).toEqual({
			keep: undefined,
			remove: [],
		});
	});

	it("leaves other workflows' webhooks and the test URL's alone", () => {
		const webhooks = [
			hook(1, urlWithSecret(OTHER_WORKFLOW, 'o')),
			hook(2, urlWithSecret(TEST, 't')),
		];
		expect(planWebhooks(webhooks, PROD, {})).toEqual({ keep: undefined, remove: [] });
		expect(planWebhooks(webhooks, TEST, {})).toEqual({
			keep: { id: '2', secret: 't' },
			remove: [],
		});
	});

	it('keeps one and removes its duplicates, preferring the stored one', () => {
		const webhooks = [
			hook(3, urlWithSecret(PROD, 'a')),
			hook(5, urlWithSecret(PROD, 'b')),
			hook(6, urlWithSecret(OTHER_WORKFLOW, 'o')),
		];
		expect(planWebhooks(webhooks, PROD, { webhookId: '5' })).toEqual({
			keep: { id: '5', secret: 'b' },
			remove: ['3'],
		});
		expect(planWebhooks(webhooks, PROD, {})).toEqual({
			keep: { id: '3', secret: 'a' },
			remove: ['5'],
		});
	});

	it('replaces one of its webhooks that cannot deliver to it: inactive, or without a secret', () => {
		expect(
			planWebhooks([hook(7, urlWithSecret(PROD, 'x'), 'inactive')], PROD, { webhookId: '7' }),
		).toEqual({
			keep: undefined,
			remove: ['7'],
		});
		expect(planWebhooks([hook(8, PROD)], PROD, {})).toEqual({ keep: undefined, remove: ['8'] });
	});

	it('removes the stored webhook when it points at an address n8n no longer uses', () => {
		const old = 'http://old-host:5678/webhook/0b3c7e52-5a8f-4c38-9d55-1f2e3a4b5c6d/webhook';
		const plan = planWebhooks([hook(4, urlWithSecret(old, 's4'))], PROD, {
			webhookId: '4',
			webhookSecret: 's4',
		});
		expect(plan).toEqual({ keep: undefined, remove: ['4'] });
	});

	it("compares ids as text (the platform's numbers, static data's strings)", () => {
		const plan = planWebhooks(
			[hook(12, urlWithSecret(PROD, 'a')), hook(13, urlWithSecret(PROD, 'b'))],
			PROD,
			{
				webhookId: '13',
			},
		);
		expect(plan.keep?.id).toBe('13');
	});
});

describe('deliveryJson: one delivery, one item', () => {
	const response = {
		id: 41,
		status: 'succeeded',
		input: '{"topic":"n8n"}',
		output: 'Done.',
		error: null,
		credits: 0.55,
		root_id: 41,
		created_at: '2026-01-01T00:00:00.000000Z',
		updated_at: '2026-01-01T00:00:03.000000Z',
		template_id: 3,
	};

	it('a JSON object becomes the item as it is', () => {
		expect(deliveryJson(Buffer.from(JSON.stringify(response)), response)).toEqual(response);
	});

	it('any other JSON value is one item, under body', () => {
		expect(deliveryJson(Buffer.from('[{"a":1},{"a":2}]'), undefined)).toEqual({
			body: [{ a: 1 }, { a: 2 }],
		});
		expect(deliveryJson(Buffer.from('"done"'), undefined)).toEqual({ body: 'done' });
		expect(deliveryJson(Buffer.from('42'), undefined)).toEqual({ body: 42 });
		expect(deliveryJson(Buffer.from('null'), undefined)).toEqual({ body: null });
	});

	it('JSON is JSON whatever the Content-Type said (n8n parsed text/plain as a string)', () => {
		expect(deliveryJson(Buffer.from('{"status":"failed"}'), '{"status":"failed"}')).toEqual({
			status: 'failed',
		});
	});

	it('a body that is not JSON is kept as text', () => {
		expect(deliveryJson(Buffer.from('run 41 finished'), 'run 41 finished')).toEqual({
			body: 'run 41 finished',
		});
		expect(deliveryJson(Buffer.from('<done id="41"/>'), { done: { $: { id: '41' } } })).toEqual({
			body: '<done id="41"/>',
		});
		expect(deliveryJson(Buffer.from('{"cut": '), undefined)).toEqual({ body: '{"cut": ' });
		expect(deliveryJson(Buffer.from(''), {})).toEqual({ body: '' });
	});

	it('reads UTF-8 and drops a byte-order mark', () => {
		expect(deliveryJson(Buffer.from('\uFEFF{"output":"Grüße ✓"}'), undefined)).toEqual({
			output: 'Grüße ✓',
		});
	});

	it("uses n8n's parsed body when the raw bytes are missing", () => {
		expect(deliveryJson(undefined, response)).toEqual(response);
		expect(deliveryJson(undefined, 'text')).toEqual({ body: 'text' });
	});
});

describe("deliveryItem: a run record with Execute's common fields", () => {
	it("adds agent_id, the common status and the platform's own word, keeping every delivered field", () => {
		const delivered = { id: 9, status: 'completed', input: 'hi', output: 'ok', template_id: 3 };
		expect(deliveryItem(delivered)).toEqual({
			...delivered,
			status: 'succeeded',
			platform_status: 'completed',
			credits: null,
			root_id: 9,
			agent_id: 3,
			generated_files: [],
		});
		expect(deliveryItem({ id: 9, status: 'cancelled' })).toMatchObject({ status: 'canceled' });
	});
	it('passes anything that is no run record unchanged', () => {
		expect(deliveryItem({ body: 'run 41 finished' })).toEqual({ body: 'run 41 finished' });
		expect(deliveryItem({ event: 'ping', id: 1 })).toEqual({ event: 'ping', id: 1 });
	});
});

describe('statusAllowed: the status filter', () => {
	it('lets everything through when no status is chosen', () => {
		expect(statusAllowed({ status: 'failed' }, [])).toBe(true);
		expect(statusAllowed({ body: 'text' }, undefined)).toBe(true);
	});
	it('lets through only the chosen statuses', () => {
		expect(statusAllowed({ status: 'succeeded' }, ['succeeded', 'completed'])).toBe(true);
		expect(statusAllowed({ status: 'failed' }, ['succeeded', 'completed'])).toBe(false);
		expect(statusAllowed({ body: 'text' }, ['succeeded'])).toBe(false);
		expect(statusAllowed({ status: 7 }, ['succeeded'])).toBe(false);
	});
	it('ignores case and accepts the British spelling of canceled', () => {
		expect(statusAllowed({ status: 'Succeeded' }, ['succeeded'])).toBe(true);
		expect(statusAllowed({ status: 'cancelled' }, ['canceled'])).toBe(true);
	});
	it('offers every status the platform is known to report', () => {
		expect(DELIVERY_STATUSES).toEqual(
			expect.arrayContaining([
				'starting',
				'running',
				'completed',
				'succeeded',
				'failed',
				'error',
				'canceled',
			]),
		);
	});
});
