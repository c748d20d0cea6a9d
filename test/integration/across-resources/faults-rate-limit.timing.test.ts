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
 * This file: a rate-limit storm.
 */
import { PACING } from '../../../nodes/AgentPlatform/transport/pace';
import { RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import {
	CHAT_COMPLETION,
	EXECUTE_START,
	EXECUTE_WAIT,
	FILE_UPLOAD,
	Kind,
	MEMORY_CREATE,
	READS,
	RETRY_AFTER,
	emu,
	posts,
	run,
	runs,
} from './faults.shared';

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
			// said once: in the message, not again in the description
			expect((error as { description?: string }).description).not.toContain('asked to wait');
			expect(emu.requests).toHaveLength(1); // the agent's form: refused, nothing else sent
			expect(runs() - before).toBe(0);
		} finally {
			RETRY.maxRateLimitWaitMs = saved;
		}
	});

	it('crowded off the key (refused while sending within its share): waits past the budget of a refused key, then says what it saw', async () => {
		const saved = { ...RETRY };
		const savedPacing = { ...PACING };
		// the budgets' ratio as shipped (5 and 15 minutes), shortened; a crowd's back-off likewise
		Object.assign(RETRY, { maxRateLimitWaitMs: 600, maxCrowdedWaitMs: 1800 });
		Object.assign(PACING, { crowdedBackoffMs: 50, crowdedBackoffMaxMs: 200 });
		try {
			// one token a minute, spent by another process: every request of this one, each a second or
			// more after its last, is refused with the time to the next token (0.4 s asked)
			emu.setFaults({ rateLimitPerSecond: 1 / 60, rateLimitBurst: 1, retryAfterSeconds: 0.4 });
			const other = await fetch(`${emu.url}/agents`, {
				headers: {
					Authorization: `Bearer ${emu.apiKey}`,
					'x-workspace-id': String(emu.workspaceId),
				},
			});
			expect(other.status).toBe(200);
			emu.clearRequests();
			const started = Date.now();
			const { error } = await run(READS[0]);
			const waited = Date.now() - started;
			// it fails at a 429, or at the hold that would outlast the budget left (nothing sent): the
			// same words either way, how long it waited rounded to whole seconds
			expect(error?.message).toMatch(
				/^The platform's rate limit let no request of this n8n process through for [12] seconds?, while other processes used the same API key$/,
			);
			const refused = emu.requests.filter((r) => r.status === 429).length;
			expect((error as { description?: string }).description).toContain(
				`its ${refused} last requests were answered 429`,
			);
			// past the 0.6 s of a key refused to it alone: at most one hold (0.4 s) short of the 1.8 s
			expect(waited).toBeGreaterThanOrEqual(1400);
			expect(emu.requests.filter((r) => r.status === 200)).toHaveLength(0);
		} finally {
			Object.assign(RETRY, saved);
			Object.assign(PACING, savedPacing);
		}
	});
});
