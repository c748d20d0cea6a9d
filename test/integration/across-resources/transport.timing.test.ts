/**
 * The request layer against the emulator over loopback, through n8n's real execution machinery:
 * authentication headers, paging, the error mapper, retries by decision 4, and cancellation.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import type { PlatformEmulator } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';

const KEY = 'sk-transport-test-key-0123456789';
let emu: PlatformEmulator;
const saved = { ...RETRY };

beforeAll(async () => {
	// A platform that gives 15 a page whatever is asked (the documented default): Return All pages.
	emu = await startEmulator({ apiKey: KEY, workspaceId: '42', quiet: true, maxPerPage: 15 });
	// Same rules, shorter waits: keeps the retry tests to seconds.
	RETRY.baseDelayMs = 20;
	RETRY.maxDelayMs = 200;
});
afterAll(async () => {
	Object.assign(RETRY, saved);
	await emu.stop();
});
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
});

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'agent',
	operation: 'getAll',
	returnAll: true,
	...extra,
});
const getAgent = (id: string): INodeParameters => ({
	resource: 'agent',
	operation: 'get',
	agentId: byId(id),
});
const agentRequests = () => emu.requests.filter((r) => r.path.startsWith('/agents'));

describe('authentication and paging', () => {
	it('sends the key and the workspace on every request, and Return All follows every page', async () => {
		const { outputs, error } = await runNode({
			parameters: getMany(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const ids = outputs[0].map((item) => item.json.id);
		expect(ids).toEqual([...emu.state.agents.keys()]);
		expect(ids.length).toBe(40);
		const pages = agentRequests();
		expect(pages.map((r) => r.query.page)).toEqual(['1', '2', '3']);
		// 100 asked, 15 given (the envelope's per_page): the following pages ask for 15
		expect(pages.map((r) => r.query.per_page)).toEqual(['100', '15', '15']);
		for (const request of pages) {
			expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
			expect(request.headers['x-workspace-id']).toBe('42');
		}
		expect(outputs[0].every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('reads the credential once per node run, however many items and pages', async () => {
		const items = [{ json: { id: '1' } }, { json: { id: '2' } }, { json: { id: '3' } }];
		const parameters = { resource: 'agent', operation: 'get', agentId: byId('={{ $json.id }}') };
		const { outputs, error, credentialReads } = await runNode({
			parameters,
			items,
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual([1, 2, 3]);
		expect(agentRequests()).toHaveLength(3);
		expect(credentialReads).toBe(1);

		emu.clearRequests();
		const paged = await runNode({ parameters: getMany(), credentials: credentialsFor(emu) });
		expect(agentRequests()).toHaveLength(3);
		expect(paged.credentialReads).toBe(1);
	});

	it('drops spaces pasted around the key and the workspace', async () => {
		const credentials = { ...credentialsFor(emu), apiKey: ` ${KEY}\n`, workspaceId: ' 42 ' };
		const { error } = await runNode({ parameters: getAgent('1'), credentials });
		expect(error).toBeUndefined();
		expect(agentRequests()[0].headers.authorization).toBe(`Bearer ${KEY}`);
		expect(agentRequests()[0].headers['x-workspace-id']).toBe('42');
	});

	it('Limit stops as soon as it has enough and asks for no more than needed', async () => {
		const { outputs } = await runNode({
			parameters: getMany({ returnAll: false, limit: 7 }),
			credentials: credentialsFor(emu),
		});
		expect(outputs[0]).toHaveLength(7);
		expect(agentRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '7' }]);
	});

	it('passes the filters and tolerates a trailing slash on the Base URL', async () => {
		const credentials = { ...credentialsFor(emu), baseUrl: `${emu.url}/` };
		const { outputs } = await runNode({
			parameters: getMany({ filters: { type: 'video', q: 'maker' } }),
			credentials,
		});
		expect(outputs[0].length).toBeGreaterThan(0);
		expect(outputs[0].every((item) => item.json.type === 'video')).toBe(true);
		expect(agentRequests()[0].query).toMatchObject({ type: 'video', q: 'maker' });
		expect(agentRequests()[0].path).toBe('/agents');
	});
});

describe('the error mapper', () => {
	it('a wrong key: plain words, and the key appears nowhere', async () => {
		const wrongKey = 'sk-wrong-key-that-must-not-leak';
		const { error, run } = await runNode({
			parameters: getAgent('1'),
			credentials: { ...credentialsFor(emu), apiKey: wrongKey },
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('The platform rejected the API key');
		expect((error as NodeApiError).httpCode).toBe('403');
		expect((error as NodeApiError).description).toContain('Invalid authentication');
		expect(JSON.stringify(run)).not.toContain(wrongKey);
		expect(
			JSON.stringify({ ...error, message: error?.message, stack: error?.stack }),
		).not.toContain(wrongKey);
	});

	it("a workspace that is not the key's", async () => {
		const { error } = await runNode({
			parameters: getAgent('1'),
			credentials: { ...credentialsFor(emu), workspaceId: '7' },
		});
		expect(error?.message).toBe('The platform refused the workspace ID');
	});

	it('an unknown id names what was not found', async () => {
		const { error } = await runNode({
			parameters: getAgent('9999'),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform could not find agent 9999');
	});

	it('a non-numeric id is refused before any request, naming the parameter and the item', async () => {
		// an expression, as n8n itself refuses a literal that fails the picker's own check
		const { error } = await runNode({
			parameters: getAgent('={{ "abc" }}'),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The agent "abc" is not a valid ID (item 1)');
		expect(emu.requests).toHaveLength(0);
	});

	it('an address where nothing listens', async () => {
		const { error } = await runNode({
			parameters: getAgent('1'),
			credentials: { ...credentialsFor(emu), baseUrl: 'http://127.0.0.1:9/api/v1' },
		});
		expect(error?.message).toBe('Could not connect to the platform at 127.0.0.1:9');
	});

	it('a Base URL that is not http(s)', async () => {
		const { error } = await runNode({
			parameters: getAgent('1'),
			credentials: { ...credentialsFor(emu), baseUrl: 'ftp://example.test' },
		});
		expect(error?.message).toMatch(/must start with http:\/\/ or https:\/\//);
		expect(emu.requests).toHaveLength(0);
	});

	it('an HTML error page: a clear error with the status, no parser trace', async () => {
		emu.setFaults({ htmlErrorRate: 1 });
		const { error } = await runNode({
			parameters: getAgent('1'),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform had a problem on its side (HTTP 502)');
		expect(error?.message).not.toMatch(/Unexpected token|JSON/);
	});

	it('Continue On Fail turns a failed item into an error item, paired with its input', async () => {
		const items = [{ json: { id: '1' } }, { json: { id: '9999' } }, { json: { id: '2' } }];
		const { outputs, error } = await runNode({
			parameters: { ...getAgent('={{ $json.id }}') },
			items,
			continueOnFail: true,
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => [item.json.id ?? item.json.error, item.pairedItem])).toEqual([
			[1, { item: 0 }],
			['The platform could not find agent 9999', { item: 1 }],
			[2, { item: 2 }],
		]);
	});

	it('the error output gets the failed items and the main output the others', async () => {
		const items = [{ json: { id: '1' } }, { json: { id: 'x' } }];
		const { outputs } = await runNode({
			parameters: { ...getAgent('={{ $json.id }}') },
			items,
			onError: 'continueErrorOutput',
			credentials: credentialsFor(emu),
		});
		expect(outputs[0].map((item) => item.json.id)).toEqual([1]);
		expect(outputs[1].map((item) => [item.json.error, item.pairedItem])).toEqual([
			['The agent "x" is not a valid ID (item 2)', { item: 1 }],
		]);
	});
});

describe('retries (decision 4)', () => {
	it('a GET is retried on 503 and succeeds', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 503 });
		const healed = new Promise((resolve) => setTimeout(resolve, 150)).then(() => emu.resetFaults());
		const { outputs, error } = await runNode({
			parameters: getAgent('1'),
			credentials: credentialsFor(emu),
		});
		await healed;
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.id).toBe(1);
		const statuses = agentRequests().map((r) => r.status);
		expect(statuses[0]).toBe(503);
		expect(statuses[statuses.length - 1]).toBe(200);
	});

	it('429 waits for retry_after, then succeeds', async () => {
		emu.setFaults({ rateLimitPerSecond: 2, retryAfterSeconds: 1 });
		const { outputs, error } = await runNode({
			parameters: getMany(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(40);
		const limited = agentRequests().filter((r) => r.status === 429);
		expect(limited.length).toBeGreaterThan(0);
		// every 429 was followed by a wait of about retry_after before the next try
		const all = agentRequests();
		for (const request of limited) {
			const next = all[all.indexOf(request) + 1];
			expect(next.at - request.at).toBeGreaterThanOrEqual(900);
		}
	});

	it('gives up after its attempts with the plain-words message', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 504 });
		const { error } = await runNode({
			parameters: getAgent('1'),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform had a problem on its side (HTTP 504)');
		// 6 attempts (docs/errors-and-retries.md: backoff 0.5 s doubling, 6 attempts)
		expect(agentRequests()).toHaveLength(6);
	});

	it('an execute that got a 503 after it ran is never sent twice', async () => {
		emu.setFaults({
			serverErrorRate: 1,
			serverErrorStatus: 503,
			serverErrorAfterProcessing: true,
			faultMethods: ['POST'],
		});
		const before = emu.runCount;
		const { error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId('3'),
				responseMode: 'start',
				answers: { mappingMode: 'defineBelow', value: { topic: 'retries', tone: 'formal' } },
			},
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform had a problem on its side (HTTP 503)');
		expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(emu.runCount - before).toBe(1);
	});

	it('an execute is retried after a 429, which ran nothing', async () => {
		emu.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: 1 });
		const before = emu.runCount;
		const { outputs, error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId('3'),
				responseMode: 'start',
				answers: { mappingMode: 'defineBelow', value: { topic: 'rate limits', tone: 'casual' } },
			},
			items: [{ json: {} }, { json: {} }, { json: {} }],
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(3);
		expect(emu.requests.some((r) => r.status === 429)).toBe(true);
		expect(emu.runCount - before).toBe(3);
	});
});
