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
 * This file: malformed JSON, HTML error pages, a web page where the API should be.
 */
import { startLoopbackServer } from '../../../dev/loopback';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import {
	EXECUTE_START,
	EXECUTE_WAIT,
	MEMORY_CREATE,
	READS,
	WEBHOOK_CREATE,
	emu,
	expectPlainWords,
	itSendsOnce,
	healAfter,
	posts,
	run,
	runs,
	savedRetry,
	seededMemory,
} from './faults.shared';

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

	itSendsOnce(
		[EXECUTE_WAIT, MEMORY_CREATE],
		{ htmlErrorRate: 1 },
		'The platform had a problem on its side (HTTP 502)',
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
