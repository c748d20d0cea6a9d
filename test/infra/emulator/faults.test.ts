/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: the faults a test turns on.
 */
import { Json, call, chatBody, emu, firstAgent, headers } from './shared';

describe('faults', () => {
	it('rate limits per key with 429, retry_after and Retry-After', async () => {
		// a token every 10 s: the second call is refused however slow a busy machine is
		emu.setFaults({ rateLimitPerSecond: 0.1 });
		const a = await call('/resources');
		const b = await call('/resources');
		expect(a.status).toBe(200);
		expect(b.status).toBe(429);
		// the time to the next token: the body in seconds (fractional), the header rounded up
		expect(b.json.error).toBe('Rate limit exceeded');
		expect(b.json.retry_after).toBeGreaterThan(5);
		expect(b.json.retry_after).toBeLessThanOrEqual(10);
		expect(b.headers.get('retry-after')).toBe(String(Math.ceil(b.json.retry_after as number)));
		expect(emu.requests[emu.requests.length - 1].status).toBe(429);
		emu.setFaults({ retryAfterSeconds: 60 });
		expect((await call('/resources')).json).toEqual({
			error: 'Rate limit exceeded',
			retry_after: 60,
		});
	});

	it('injects 5xx before or after processing, HTML 502, malformed JSON, resets and hangs', async () => {
		const agent = await firstAgent('chat');
		emu.setFaults({ serverErrorRate: 1 });
		let before = emu.runCount;
		let r = await call(`/agents/${agent.id}/execute`, { body: chatBody(agent, 'x') });
		expect(r.status).toBe(503);
		expect(emu.runCount).toBe(before);

		emu.setFaults({ serverErrorRate: 1, serverErrorAfterProcessing: true, serverErrorStatus: 500 });
		before = emu.runCount;
		r = await call(`/agents/${agent.id}/execute`, { body: chatBody(agent, 'x') });
		expect(r.status).toBe(500);
		expect(emu.runCount).toBe(before + 1);

		emu.resetFaults();
		emu.setFaults({ htmlErrorRate: 1 });
		r = await call('/agents');
		expect(r.status).toBe(502);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);

		emu.setFaults({ htmlErrorRate: 0, malformedJsonRate: 1 });
		r = await call('/agents');
		expect(r.status).toBe(200);
		expect(() => JSON.parse(r.text)).toThrow();

		emu.setFaults({ malformedJsonRate: 0, resetConnectionRate: 1 });
		await expect(fetch(`${emu.url}/agents`, { headers: headers(emu) })).rejects.toThrow();

		emu.setFaults({ resetConnectionRate: 0, hangRate: 1 });
		await expect(
			fetch(`${emu.url}/agents`, { headers: headers(emu), signal: AbortSignal.timeout(300) }),
		).rejects.toThrow();
		expect(emu.requests[emu.requests.length - 1].status).toBe(0);

		emu.setFaults({ hangRate: 0, latencyMs: 150 });
		const t0 = Date.now();
		await call('/resources');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	});

	it('exposes the same control over HTTP under /_emulator', async () => {
		const root = emu.url.replace(/\/api\/v1$/, '');
		expect(await (await fetch(`${root}/_emulator/health`)).json()).toMatchObject({
			ok: true,
			url: emu.url,
		});
		await fetch(`${root}/_emulator/requests`, { method: 'DELETE' });
		await call('/agents/1');
		const recs = (await (await fetch(`${root}/_emulator/requests`)).json()) as Json;
		expect(recs.requests.map((x: Json) => x.path)).toEqual(['/agents/1']);

		await fetch(`${root}/_emulator/faults`, {
			method: 'PUT',
			body: JSON.stringify({ serverErrorRate: 1, serverErrorStatus: 504 }),
		});
		expect((await call('/agents/1')).status).toBe(504);
		await fetch(`${root}/_emulator/faults`, { method: 'DELETE' });
		expect((await call('/agents/1')).status).toBe(200);

		const agent = await firstAgent('chat');
		const cfg = await fetch(`${root}/_emulator/agents/${agent.id}/config`, {
			method: 'POST',
			body: JSON.stringify({ fail: 'configured failure', executionSeconds: 1 }),
		});
		expect(cfg.status).toBe(200);
		const run = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'x', { wait_execution: true }),
		});
		expect(run.json.responses[0]).toMatchObject({ status: 'failed', error: 'configured failure' });
		emu.configureAgent(agent.id, { fail: false, output: 'fixed output' });
		const run2 = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'x', { wait_execution: true }),
		});
		expect(run2.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'fixed output' });
	});
});
