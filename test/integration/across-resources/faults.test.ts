/**
 * The fault matrix (README: "Faults: what the node does"): every fault the emulator injects,
 * against every kind of operation, each cell with its stated outcome. In-process n8n
 * (test/infra/n8n.ts: n8n-core's real WorkflowExecute, request helpers and HookContext) against
 * the emulator over loopback. The transport's rules are unchanged; only its waits are shortened
 * (RETRY's delays, REQUEST_TIMEOUT.defaultMs = 1 s, polling every 0.1 s) and the emulator asks
 * for waits of 0.4 s on 429: the node's behaviour does not depend on the length.
 *
 * Operation kinds: reads (GET, one or every page), updates and deletes (PATCH, PUT, DELETE), and
 * POSTs that spend credits or create records (Execute, Chat Completion, Memory Create, File Upload,
 * Webhook Create). "Effect" counts what a POST leaves on the platform (runs, memories, files,
 * webhooks): it proves that nothing ran twice.
 */

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { POLLING } from '../../../nodes/AgentPlatform/helpers/runs/agentResponses';
import { RECOVERY } from '../../../nodes/AgentPlatform/helpers/runs/runRecovery';
import { REQUEST_TIMEOUT, RETRY } from '../../../nodes/AgentPlatform/transport/request';
import type { EmulatorFaults, PlatformEmulator, RecordedRequest } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { startLoopbackServer } from '../../../dev/loopback';
import type { RunNodeResult, StreamChunk } from '../../infra/n8n';
import { binaryItem, byId, credentialsFor, runNode, triggerLifecycle } from '../../infra/n8n';

const CHAT = 1;
const TEXT = 3;
const VIDEO = 4; // gets the webhooks Webhook → Create makes; never run here, so nothing is delivered
const STATUSES_5XX = [502, 503, 504] as const;

let emu: PlatformEmulator;
const savedRetry = { ...RETRY };
const savedRecovery = { ...RECOVERY };
const savedTimeout = { ...REQUEST_TIMEOUT };
const savedPolling = { ...POLLING };
const RETRY_AFTER = 0.4;

beforeAll(async () => {
	emu = await startEmulator({
		apiKey: 'sk-fault-matrix-0f3c',
		timeScale: 100,
		executionSeconds: 5,
		quiet: true,
		// 15 a page whatever is asked (the documented default): Get Many of 40 agents is 3 pages
		maxPerPage: 15,
	});
	// The same rules with shorter waits: backoff from 10-20 ms doubling, a request timeout of 1 s.
	Object.assign(RETRY, { baseDelayMs: 20, maxDelayMs: 200 });
	REQUEST_TIMEOUT.defaultMs = 1000;
	POLLING.minIntervalMs = 100;
	RECOVERY.pauseMs = 20;
});
afterAll(async () => {
	Object.assign(RETRY, savedRetry);
	Object.assign(REQUEST_TIMEOUT, savedTimeout);
	Object.assign(POLLING, savedPolling);
	Object.assign(RECOVERY, savedRecovery);
	await emu.stop();
});
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
	emu.state.files.clear();
	emu.state.webhooks.clear();
});

// ---------------------------------------------------------------------------------------------
// The operation kinds
// ---------------------------------------------------------------------------------------------

let nextSeeded = 90_000;

/** A memory of our own on the platform, so that each update or delete has one to work on. */
function seededMemory(): number {
	const id = ++nextSeeded;
	emu.state.memories.set(id, {
		id,
		user_id: 7,
		collection_id: 1,
		memory: `seeded ${id}`,
		credits: 0,
	});
	return id;
}
function seededCollection(): number {
	const id = ++nextSeeded;
	emu.state.collections.set(id, { id, user_id: 7, name: `c${id}`, display_name: `c${id}` });
	return id;
}
const chatSettings = () => emu.firstOptions(CHAT);

interface Kind {
	name: string;
	method: 'GET' | 'PATCH' | 'PUT' | 'DELETE' | 'POST';
	parameters(): INodeParameters;
	items?(): INodeExecutionData[];
	/** What the operation leaves on the platform, counted. */
	effect?(): number;
	/** Output items of one successful run with the default single input item. */
	outputs?: number;
}

const READS: Kind[] = [
	{
		name: 'Agent → Get (GET)',
		method: 'GET',
		parameters: () => ({ resource: 'agent', operation: 'get', agentId: byId(1) }),
	},
	{
		name: 'Agent → Get Many, Return All (GET, 3 pages)',
		method: 'GET',
		parameters: () => ({ resource: 'agent', operation: 'getAll', returnAll: true }),
		outputs: 40,
	},
	{
		name: 'Memory → Update (PATCH)',
		method: 'PATCH',
		parameters: () => ({
			resource: 'memory',
			operation: 'update',
			memoryId: String(seededMemory()),
			memory: 'changed',
		}),
	},
	{
		name: 'Memory Collection → Rename (PUT)',
		method: 'PUT',
		parameters: () => ({
			resource: 'memoryCollection',
			operation: 'rename',
			collectionId: byId(seededCollection()),
			name: `renamed ${nextSeeded}`,
		}),
	},
	{
		name: 'Memory → Delete (DELETE)',
		method: 'DELETE',
		parameters: () => ({
			resource: 'memory',
			operation: 'delete',
			memoryId: String(seededMemory()),
		}),
	},
];

// Each run asks something new, so that a cut start call's lookup finds only its own run.
let asked = 0;
const textAnswers = () => ({
	answers: { mappingMode: 'defineBelow', value: { topic: `faults ${++asked}`, tone: 'formal' } },
});
const runs = () => emu.executionCount;

const EXECUTE_WAIT: Kind = {
	name: 'Agent → Execute, wait for completion (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'execute',
		agentId: byId(TEXT),
		...textAnswers(),
	}),
	effect: runs,
};
const EXECUTE_START: Kind = {
	name: 'Agent → Execute, start only (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'execute',
		agentId: byId(TEXT),
		responseMode: 'start',
		...textAnswers(),
	}),
	effect: runs,
};
/**
 * Agent → Execute's start call, when it may have reached the platform unanswered (a gateway 502/504
 * page, a cut connection, a timeout, a garbled 2xx), is looked up, never sent again
 * (agent/execute-run-recovery.test.ts): a run it started is carried on, and none found fails in these words.
 */
const LOOKED_UP = new Set<Kind>([EXECUTE_WAIT, EXECUTE_START]);
const lookedUp = (kind: Kind, status?: number) =>
	LOOKED_UP.has(kind) && (status === undefined || status === 502 || status === 504);
const LOST_RUN = 'The start of the run got no answer, and the platform may have started it';

const CHAT_COMPLETION: Kind = {
	name: 'Agent → Chat Completion (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'chatCompletion',
		agentId: byId(CHAT),
		message: 'Hi',
		...chatSettings(),
	}),
	effect: runs,
};
const MEMORY_CREATE: Kind = {
	name: 'Memory → Create (POST)',
	method: 'POST',
	parameters: () => ({
		resource: 'memory',
		operation: 'create',
		memory: 'remember the fault matrix',
	}),
	effect: () => emu.state.memories.size,
};
const FILE_UPLOAD: Kind = {
	name: 'File → Upload (POST, multipart)',
	method: 'POST',
	parameters: () => ({ resource: 'file', operation: 'upload', binaryPropertyName: 'data' }),
	items: () => [
		binaryItem(Buffer.from('fault matrix notes\n'), {
			fileName: 'notes.txt',
			mimeType: 'text/plain',
		}),
	],
	effect: () => emu.state.files.size,
};
const WEBHOOK_CREATE: Kind = {
	name: 'Webhook → Create (POST)',
	method: 'POST',
	parameters: () => ({
		resource: 'webhook',
		operation: 'create',
		agentId: byId(VIDEO),
		url: 'https://hooks.example.test/agent-runs',
		method: 'POST',
		status: 'active',
	}),
	effect: () => emu.state.webhooks.size,
};
const POSTS: Kind[] = [
	EXECUTE_WAIT,
	EXECUTE_START,
	CHAT_COMPLETION,
	MEMORY_CREATE,
	FILE_UPLOAD,
	WEBHOOK_CREATE,
];

async function run(kind: Kind, items?: INodeExecutionData[]): Promise<RunNodeResult> {
	return await runNode({
		parameters: kind.parameters(),
		items: items ?? kind.items?.(),
		credentials: credentialsFor(emu),
	});
}

const posts = () => emu.requests.filter((r) => r.method === 'POST');

/** Turns the faults off once `count` answers matched, so that a retry after them succeeds. */
function healAfter(count: number, answered: (r: RecordedRequest) => boolean): Promise<void> {
	return emu
		.waitFor(() => emu.requests.filter(answered).length >= count, 20_000)
		.then(() => emu.resetFaults());
}

/** A clear error: plain words, the status where there was one, no parser message or stack trace. */
function expectPlainWords(error: Error | undefined): void {
	expect(error).toBeDefined();
	const text = `${error!.message}\n${(error as { description?: string }).description ?? ''}`;
	expect(text).not.toMatch(
		/SyntaxError|Unexpected (token|end)|JSON\.parse|in JSON at position|\n\s+at .+:\d+:\d+/,
	);
}

// ---------------------------------------------------------------------------------------------
// The matrix
// ---------------------------------------------------------------------------------------------

describe('429 with retry_after (rate-limit storm): success after waiting, nothing run twice', () => {
	const CASES: Array<[Kind, number]> = [
		[READS[1], 1], // three pages
		[EXECUTE_WAIT, 3],
		[CHAT_COMPLETION, 2],
		[MEMORY_CREATE, 3],
		[FILE_UPLOAD, 3],
	];
	it.each(CASES.map(([kind, count]) => [kind.name, kind, count] as const))(
		'%s',
		async (_name, kind, count) => {
			emu.setFaults({ rateLimitPerSecond: 2, retryAfterSeconds: RETRY_AFTER });
			const before = kind.effect?.() ?? 0;
			const items = kind.items
				? Array.from({ length: count }, () => kind.items!()[0])
				: Array.from({ length: count }, () => ({ json: {} }));
			const { outputs, error } = await run(kind, items);
			expect(error).toBeUndefined();
			expect(outputs[0]).toHaveLength(kind.outputs ?? count);
			const all = emu.requests;
			const limited = all.filter((r) => r.status === 429);
			expect(limited.length).toBeGreaterThan(0);
			for (const request of limited) {
				// the next request came after the asked wait, not before
				const next = all[all.indexOf(request) + 1];
				expect(next.at - request.at).toBeGreaterThanOrEqual(RETRY_AFTER * 1000 - 20);
			}
			// each item did its work exactly once: the emulator's own count of runs / records
			if (kind.effect) expect(kind.effect() - before).toBe(count);
		},
	);

	it('a storm (several 429s in a row) on Agent → Execute: waits each time, runs each item once', async () => {
		// One request a second, and each 429 asks for 0.4 s: two or three refusals before each success.
		emu.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: RETRY_AFTER });
		const before = runs();
		const { outputs, error } = await run(EXECUTE_START, [{ json: {} }, { json: {} }]);
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.status)).toEqual(['starting', 'starting']);
		const statuses = emu.requests.map((r) => r.status);
		expect(statuses.join(',')).toMatch(/429,429/);
		expect(runs() - before).toBe(2);
		expect(posts().filter((r) => r.status === 200)).toHaveLength(2);
	});

	it('a retry_after longer than the node waits for: fails at once, saying how long the platform asked for', async () => {
		const saved = RETRY.maxRateLimitWaitMs;
		RETRY.maxRateLimitWaitMs = 500;
		try {
			emu.setFaults({ rateLimitPerSecond: 0.01, retryAfterSeconds: 90 });
			await run(READS[0]); // takes the one token
			emu.clearRequests();
			const before = runs();
			const { error } = await run(EXECUTE_START);
			expect(error?.message).toBe(
				"The platform's rate limit asks to wait 90 seconds, longer than the node waits (1 second)",
			);
			expect((error as { description?: string }).description).toContain(
				'The platform asked to wait 90 seconds',
			);
			expect(emu.requests).toHaveLength(1); // the agent's form: refused, nothing else sent
			expect(runs() - before).toBe(0);
		} finally {
			RETRY.maxRateLimitWaitMs = saved;
		}
	});
});

describe.each(STATUSES_5XX)('HTTP %i', (status) => {
	it.each(READS.map((kind) => [kind.name, kind] as const))(
		'%s: retried, and succeeds once the platform recovers',
		async (_name, kind) => {
			const parameters = kind.parameters();
			emu.setFaults({ serverErrorRate: 1, serverErrorStatus: status });
			const healed = healAfter(2, (r) => r.status === status);
			const { outputs, error } = await runNode({ parameters, credentials: credentialsFor(emu) });
			await healed;
			expect(error).toBeUndefined();
			expect(outputs[0]).toHaveLength(kind.outputs ?? 1);
			const statuses = emu.requests.map((r) => r.status);
			expect(statuses.slice(0, 2)).toEqual([status, status]);
			expect(statuses[statuses.length - 1]).toBe(200);
		},
	);

	it(`Agent → Get: retried ${RETRY.maxAttempts} times in all, then a plain-words error with the status`, async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: status });
		const { error } = await run(READS[0]);
		expect(error?.message).toBe(`The platform had a problem on its side (HTTP ${status})`);
		expect(emu.requests).toHaveLength(savedRetry.maxAttempts);
		expectPlainWords(error);
	});

	it.each(POSTS.map((kind) => [kind.name, kind] as const))(
		'%s: sent once, never retried; the error names the status; nothing was done',
		async (_name, kind) => {
			emu.setFaults({ serverErrorRate: 1, serverErrorStatus: status, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe(
				lookedUp(kind, status)
					? LOST_RUN
					: `The platform had a problem on its side (HTTP ${status})`,
			);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(0);
		},
	);

	it.each(POSTS.map((kind) => [kind.name, kind] as const))(
		'%s, answered after it took effect: sent once, done exactly once',
		async (_name, kind) => {
			emu.setFaults({
				serverErrorRate: 1,
				serverErrorStatus: status,
				serverErrorAfterProcessing: true,
				faultMethods: ['POST'],
			});
			const before = kind.effect!();
			const { error } = await run(kind);
			if (lookedUp(kind, status))
				expect(error).toBeUndefined(); // the run it started was found
			else expect(error?.message).toBe(`The platform had a problem on its side (HTTP ${status})`);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(1);
		},
	);
});

describe('connection reset (the socket closes without an answer)', () => {
	it.each(READS.map((kind) => [kind.name, kind] as const))(
		'%s: retried, and succeeds once the network recovers',
		async (_name, kind) => {
			const parameters = kind.parameters();
			emu.setFaults({ resetConnectionRate: 1 });
			const healed = healAfter(2, (r) => r.status === 0);
			const { outputs, error } = await runNode({ parameters, credentials: credentialsFor(emu) });
			await healed;
			expect(error).toBeUndefined();
			expect(outputs[0]).toHaveLength(kind.outputs ?? 1);
			expect(emu.requests[0].status).toBe(0);
		},
	);

	it('Agent → Get, reset every time: a plain-words error after its attempts', async () => {
		emu.setFaults({ resetConnectionRate: 1 });
		const { error } = await run(READS[0]);
		expect(error?.message).toBe('The connection to the platform broke before it answered');
		expect(emu.requests).toHaveLength(savedRetry.maxAttempts);
		expectPlainWords(error);
	});

	it('File → Upload: the body never arrived whole, so it is sent again (nothing can have been stored), then a plain-words error', async () => {
		emu.setFaults({ resetConnectionRate: 1, faultMethods: ['POST'] });
		const { error } = await run(FILE_UPLOAD);
		expect(error?.message).toBe('The connection to the platform broke before it answered');
		expect(posts()).toHaveLength(savedRetry.maxAttempts);
		expect(emu.state.files.size).toBe(0);
	});

	it.each(POSTS.filter((kind) => kind !== FILE_UPLOAD).map((kind) => [kind.name, kind] as const))(
		'%s: sent once, a plain-words error',
		async (_name, kind) => {
			emu.setFaults({ resetConnectionRate: 1, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe(
				lookedUp(kind) ? LOST_RUN : 'The connection to the platform broke before it answered',
			);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(0);
			expectPlainWords(error);
		},
	);
});

describe('no answer within the timeout (the platform accepts the request and never answers)', () => {
	it(`Agent → Get: asked ${savedRetry.maxTimeoutAttempts} times, then an error naming the timeout`, async () => {
		emu.setFaults({ hangRate: 1 });
		const started = Date.now();
		const { error } = await run(READS[0]);
		expect(error?.message).toBe('The platform did not answer within 1 second');
		expect((error as { description?: string }).description).toContain(
			`It was asked ${savedRetry.maxTimeoutAttempts} times`,
		);
		expect(emu.requests).toHaveLength(savedRetry.maxTimeoutAttempts);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it.each([EXECUTE_START].map((kind) => [kind.name, kind] as const))(
		'%s: sent once, an error naming the timeout',
		async (_name, kind) => {
			emu.setFaults({ hangRate: 1, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe(LOST_RUN);
			expect((error as { description?: string }).description).toContain(
				'The platform did not answer within 1 second',
			);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(0);
		},
	);

	it('Agent → Chat Completion: its own Timeout option bounds the request, and the error names it', async () => {
		emu.setFaults({ hangRate: 1, faultMethods: ['POST'] });
		const { error } = await runNode({
			parameters: { ...CHAT_COMPLETION.parameters(), options: { timeout: 0.02 } }, // 1.2 seconds
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform did not answer within 1 second');
		expect(posts()).toHaveLength(1);
	});
});

describe('malformed JSON (HTTP 200, the body cut short)', () => {
	it('Agent → Get: asked again, and succeeds once the answers are whole', async () => {
		emu.setFaults({ malformedJsonRate: 1 });
		const healed = healAfter(2, (r) => r.status === 200);
		const { outputs, error } = await run(READS[0]);
		await healed;
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({ id: 1, title: expect.any(String) });
		expect(emu.requests.length).toBeGreaterThanOrEqual(2);
	});

	it('Agent → Get, malformed every time: an error with the status, never the text passed on as output', async () => {
		emu.setFaults({ malformedJsonRate: 1 });
		const { outputs, error } = await run(READS[0]);
		expect(error?.message).toBe("The platform's answer (HTTP 200) is not valid JSON");
		expect((error as { httpCode?: string }).httpCode).toBe('200');
		expect(outputs).toEqual([]);
		expect(emu.requests).toHaveLength(savedRetry.maxAttempts);
		expectPlainWords(error);
	});

	it('Memory → Delete: a 2xx means it was deleted, so it is not sent again (that would only get a 404)', async () => {
		emu.setFaults({ malformedJsonRate: 1 });
		const memoryId = seededMemory();
		const { outputs, error } = await run({
			...READS[4],
			parameters: () => ({ resource: 'memory', operation: 'delete', memoryId: String(memoryId) }),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({ id: memoryId, deleted: true });
		expect(emu.requests.map((r) => [r.method, r.status])).toEqual([['DELETE', 200]]);
		expect(emu.state.memories.has(memoryId)).toBe(false);
	});

	it('Agent → Execute, start only: sent once; the run it started is found and returned', async () => {
		emu.setFaults({ malformedJsonRate: 1, faultMethods: ['POST'] });
		const before = runs();
		const { outputs, error } = await run(EXECUTE_START);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.id).toEqual(expect.any(Number));
		expect(posts()).toHaveLength(1);
		expect(runs() - before).toBe(1);
	});

	it.each([MEMORY_CREATE, WEBHOOK_CREATE].map((kind) => [kind.name, kind] as const))(
		'%s: sent once; the error has the status and says the request may have been carried out',
		async (_name, kind) => {
			emu.setFaults({ malformedJsonRate: 1, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe("The platform's answer (HTTP 200) is not valid JSON");
			expect((error as { description?: string }).description).toMatch(
				/may have carried out the request/,
			);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(1); // the emulator cuts the body after the work is done
			expectPlainWords(error);
		},
	);
});

describe('an HTML error page (HTTP 502 from a proxy)', () => {
	it('Agent → Get Many, Return All: retried; a plain-words error with the status', async () => {
		emu.setFaults({ htmlErrorRate: 1 });
		const { error } = await run(READS[1]);
		expect(error?.message).toBe('The platform had a problem on its side (HTTP 502)');
		expect(emu.requests).toHaveLength(savedRetry.maxAttempts);
		expectPlainWords(error);
		expect((error as { description?: string }).description).not.toContain('<html>');
	});

	it.each([EXECUTE_WAIT, MEMORY_CREATE].map((kind) => [kind.name, kind] as const))(
		'%s: sent once; a plain-words error with the status',
		async (_name, kind) => {
			emu.setFaults({ htmlErrorRate: 1, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe(
				lookedUp(kind) ? LOST_RUN : 'The platform had a problem on its side (HTTP 502)',
			);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(0);
			expectPlainWords(error);
		},
	);
});

describe('a web page with HTTP 200 where the API should be (a wrong Base URL, a captive proxy)', () => {
	it.each([READS[0], MEMORY_CREATE].map((kind) => [kind.name, kind] as const))(
		'%s: a plain-words error pointing at the Base URL',
		async (_name, kind) => {
			const pages: string[] = [];
			const site = await startLoopbackServer((req, res) => {
				pages.push(`${req.method} ${req.url}`);
				req.resume();
				res
					.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
					.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
			});
			try {
				const { outputs, error } = await runNode({
					parameters: kind.parameters(),
					credentials: { ...credentialsFor(emu), baseUrl: `${site.origin}/api/v1` },
				});
				expect(error?.message).toBe(
					'The platform answered HTTP 200 with a web page instead of JSON',
				);
				expect((error as { description?: string }).description).toMatch(/check the Base URL/);
				expect(outputs).toEqual([]);
				expect(pages).toHaveLength(kind.method === 'POST' ? 1 : savedRetry.maxAttempts);
				expectPlainWords(error);
			} finally {
				await site.close();
			}
		},
	);
});

describe('Server-Sent Events cut midway or gone silent: the whole output through polling', () => {
	async function streamRun(extra: IDataObject = {}) {
		const chunks: StreamChunk[] = [];
		const result = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(CHAT),
				message: 'Tell me about faults',
				...chatSettings(),
				responseMode: 'stream',
				...extra,
			},
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		return { ...result, chunks };
	}
	const forwarded = (chunks: StreamChunk[]) =>
		chunks
			.filter((c) => c.type === 'item')
			.map((c) => c.content)
			.join('');

	it.each([
		['cut after the first event', { cutStreamAfterEvents: 1 }, {}],
		['cut after three events', { cutStreamAfterEvents: 3 }, {}],
		['silent after two events', { silentStreamAfterEvents: 2 }, { options: { idleTimeout: 1 } }],
	] as Array<[string, Partial<EmulatorFaults>, IDataObject]>)(
		'%s',
		async (_name, faults, extra) => {
			emu.setFaults(faults);
			const before = runs();
			const { outputs, error, chunks } = await streamRun(extra);
			expect(error).toBeUndefined();
			const item = outputs[0][0].json;
			const record = emu.state.responses.get(Number(item.id))!;
			expect(item.status).toBe('succeeded');
			expect(item.output).toBe(record.output);
			expect(String(item.output).length).toBeGreaterThan(20);
			// the caller of a streaming workflow got every piece too, once
			expect(forwarded(chunks)).toBe(item.output);
			expect(runs() - before).toBe(1);
			expect(posts()).toHaveLength(1);
			expect(
				emu.requests.filter((r) => r.path === `/agent-responses/${item.id}`).length,
			).toBeGreaterThan(0);
		},
	);

	it('cut before the first event (no run ID known): a plain-words error, nothing run twice', async () => {
		emu.setFaults({ cutStreamAfterEvents: 0 });
		const before = runs();
		const { error } = await streamRun();
		expect(error?.message).toBe('The stream broke off before the platform said which run it was');
		expect((error as { description?: string }).description).toMatch(/did not run twice/);
		expect(posts()).toHaveLength(1);
		expect(runs() - before).toBeLessThanOrEqual(1);
		expectPlainWords(error);
	});

	it('Agent → Chat Completion streamed and cut: an error (no record to poll), sent once', async () => {
		emu.setFaults({ cutStreamAfterEvents: 2 });
		const before = runs();
		const { error } = await runNode({
			parameters: { ...CHAT_COMPLETION.parameters(), stream: true },
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The streamed answer broke off before its end');
		expect((error as { description?: string }).description).toMatch(
			/did not run twice.*Agent → Execute with the response mode Stream/,
		);
		expect(posts()).toHaveLength(1);
		expect(runs() - before).toBe(1);
	});
});

describe("the trigger's webhook deleted on the platform behind n8n's back", () => {
	it('is registered anew on the next activation, and only one remains', async () => {
		const trigger = await triggerLifecycle({
			parameters: { agentId: byId(TEXT), options: {} },
			credentials: credentialsFor(emu),
		});
		const ours = () =>
			[...emu.state.webhooks.values()].filter((w) => w.url.split('?')[0] === trigger.webhookUrl);

		expect(await trigger.activate()).toBe('created');
		const [first] = ours();
		expect(first.url).toMatch(/\?secret=[0-9a-f]{64}$/);
		expect(trigger.staticData()).toMatchObject({ webhookId: String(first.id) });
		const firstSecret = trigger.staticData().webhookSecret;

		// An activation while it is there keeps it.
		expect(await trigger.activate()).toBe('kept');
		expect(ours().map((w) => w.id)).toEqual([first.id]);

		// Deleted by someone on the platform, while the workflow is active.
		emu.state.webhooks.delete(first.id);
		expect(await trigger.activate()).toBe('created');
		const [second] = ours();
		expect(ours()).toHaveLength(1);
		expect(second.id).not.toBe(first.id);
		expect(trigger.staticData()).toMatchObject({ webhookId: String(second.id) });
		expect(trigger.staticData().webhookSecret).not.toBe(firstSecret);

		// Deleted again, then the workflow deactivated: the platform's 404 counts as gone.
		emu.state.webhooks.delete(second.id);
		emu.clearRequests();
		expect(await trigger.delete()).toBe(true);
		expect(emu.requests.map((r) => [r.method, r.path, r.status])).toEqual([
			['DELETE', `/webhooks/${second.id}`, 404],
		]);
		expect(trigger.staticData()).toEqual({});
	});
});
