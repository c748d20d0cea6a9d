import type { INode } from 'n8n-workflow';

import type { PlatformContext } from '../../nodes/AgentPlatform/transport/types';
import {
	readServerSentEvents,
	streamInterruptionOf,
} from '../../nodes/AgentPlatform/transport/sse';

const node = { name: 'Agent Platform' } as INode;
function context(signal?: AbortSignal): PlatformContext {
	return {
		getNode: () => node,
		getExecutionCancelSignal: () => signal,
	} as unknown as PlatformContext;
}

async function* chunksOf(
	parts: Array<string | Uint8Array>,
	gapMs = 0,
): AsyncGenerator<Uint8Array | string> {
	for (const part of parts) {
		if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
		yield part;
	}
}

async function collect(parts: Array<string | Uint8Array>, idleTimeoutMs = 1000) {
	const events = [];
	for await (const event of readServerSentEvents(context(), chunksOf(parts), { idleTimeoutMs }))
		events.push(event);
	return events;
}

describe('readServerSentEvents', () => {
	it('yields each data event, with CRLF, comments and retry fields', async () => {
		const events = await collect([
			': keep-alive\r\n\r\nretry: 3000\r\n',
			'data: {"a":1}\r\n\r\nevent: x\ndata: two\ndata: lines\n\n',
		]);
		expect(events.map((e) => e.data)).toEqual(['{"a":1}', 'two\nlines']);
		expect(events[1].event).toBe('x');
	});

	it('decodes a multi-byte character split across chunks', async () => {
		const bytes = new TextEncoder().encode('data: {"t":"héllo 👋"}\n\n');
		const split = [bytes.slice(0, 14), bytes.slice(14, 22), bytes.slice(22)];
		const events = await collect(split);
		expect(JSON.parse(events[0].data)).toEqual({ t: 'héllo 👋' });
	});

	it('keeps a last event that lacks its blank line', async () => {
		const events = await collect(['data: one\n\n', 'data: [DONE]']);
		expect(events.map((e) => e.data)).toEqual(['one', '[DONE]']);
	});

	it('reports a silent stream as idle', async () => {
		async function* silent() {
			yield 'data: first\n\n';
			await new Promise((resolve) => setTimeout(resolve, 600));
			yield 'data: late\n\n';
		}
		const seen: string[] = [];
		let caught: unknown;
		try {
			for await (const event of readServerSentEvents(context(), silent(), { idleTimeoutMs: 200 }))
				seen.push(event.data);
		} catch (error) {
			caught = error;
		}
		expect(seen).toEqual(['first']);
		expect(streamInterruptionOf(caught)).toBe('idle');
		expect((caught as Error).message).toMatch(/sent nothing/);
	});

	it('reports a broken stream', async () => {
		async function* broken() {
			yield 'data: first\n\n';
			throw new Error('socket hang up');
		}
		await expect(
			(async () => {
				for await (const _ of readServerSentEvents(context(), broken(), { idleTimeoutMs: 1000 }))
					void _;
			})(),
		).rejects.toMatchObject({ context: { streamInterruption: 'broken' } });
	});

	it('stops when the execution is cancelled', async () => {
		const controller = new AbortController();
		async function* slow() {
			yield 'data: first\n\n';
			await new Promise((resolve) => setTimeout(resolve, 600));
		}
		setTimeout(() => controller.abort(), 100);
		let caught: unknown;
		try {
			for await (const _ of readServerSentEvents(context(controller.signal), slow(), {
				idleTimeoutMs: 5000,
			}))
				void _;
		} catch (error) {
			caught = error;
		}
		expect(streamInterruptionOf(caught)).toBe('cancelled');
	});
});
