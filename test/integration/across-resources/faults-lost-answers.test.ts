/**
 * The fault matrix (docs/errors-and-retries.md: "Faults: what the node does"): every fault the emulator injects,
 * against every kind of operation, each cell with its stated outcome. In-process n8n
 * (test/infra/n8n/, n8n-core's real WorkflowExecute, request helpers and HookContext) against
 * the emulator over loopback. The transport's rules are unchanged; only its waits are shortened
 * (RETRY's delays, REQUEST_TIMEOUT.defaultMs = 1 s where nothing answers, polling every 0.1 s) and the emulator asks
 * for waits of 0.4 s on 429: the node's behaviour does not depend on the length.
 *
 * Operation kinds: reads (GET, one or every page), updates and deletes (PATCH, PUT, DELETE), and
 * POSTs that spend credits or create records (Execute, Chat Completion, Memory Create, File Upload,
 * Webhook Create). "Effect" counts what a POST leaves on the platform (runs, memories, files,
 * webhooks): it proves that nothing ran twice.
 *
 * This file: 5xx answers, reset connections, no answer within the timeout.
 */
import { REQUEST_TIMEOUT, RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import { credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import {
	CHAT_COMPLETION,
	EXECUTE_START,
	FILE_UPLOAD,
	LOST_RUN,
	NO_ANSWER_TIMEOUT_MS,
	POSTS,
	READS,
	STATUSES_5XX,
	emu,
	expectPlainWords,
	itSendsOnce,
	healAfter,
	lookedUp,
	posts,
	run,
	savedRetry,
} from './faults.shared';

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
		// the emulator cuts the connection on the request's headers; a body of a few bytes may have
		// been handed over whole by then (and is rightly not sent again): 16 MB cannot have been
		const large = binaryItem(Buffer.alloc(16 * 1024 * 1024, 'n'), {
			fileName: 'notes.txt',
			mimeType: 'text/plain',
		});
		const { error } = await run(FILE_UPLOAD, [large]);
		expect(error?.message).toBe('The connection to the platform broke before it answered');
		expect(posts()).toHaveLength(savedRetry.maxAttempts);
		expect(emu.state.files.size).toBe(0);
	});

	itSendsOnce(
		POSTS.filter((kind) => kind !== FILE_UPLOAD),
		{ resetConnectionRate: 1 },
		'The connection to the platform broke before it answered',
	);
});

describe('no answer within the timeout (the platform accepts the request and never answers)', () => {
	let timeoutBefore = 0;
	beforeAll(() => {
		timeoutBefore = REQUEST_TIMEOUT.defaultMs;
		REQUEST_TIMEOUT.defaultMs = NO_ANSWER_TIMEOUT_MS;
	});
	afterAll(() => (REQUEST_TIMEOUT.defaultMs = timeoutBefore));

	it(`Agent → Get: asked ${savedRetry.maxTimeoutAttempts} times, then an error naming the timeout`, async () => {
		emu.setFaults({ hangRate: 1 });
		const started = Date.now();
		const { error } = await run(READS[0]);
		expect(error?.message).toBe('The platform did not answer within 1 second');
		expect((error as { description?: string }).description).toContain(
			`It was asked ${savedRetry.maxTimeoutAttempts} times`,
		);
		expect(emu.requests).toHaveLength(savedRetry.maxTimeoutAttempts);
		// each attempt waited out its whole timeout (a lower bound: a loaded machine only adds to it)
		expect(Date.now() - started).toBeGreaterThanOrEqual(
			savedRetry.maxTimeoutAttempts * NO_ANSWER_TIMEOUT_MS,
		);
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
