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
 * This file: streams cut or silent; the trigger's webhook deleted behind n8n's back.
 */
import type { IDataObject } from 'n8n-workflow';
import type { EmulatorFaults } from '../../../dev/emulator';
import type { StreamChunk } from '../../infra/n8n/runNode';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { triggerLifecycle } from '../../infra/n8n/trigger';
import {
	CHAT,
	CHAT_COMPLETION,
	TEXT,
	chatSettings,
	emu,
	expectPlainWords,
	posts,
	runs,
} from './faults.shared';

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
			const record = emu.state.runs.get(Number(item.id))!;
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
