/**
 * What the end-to-end chats with n8n's Redis Chat Memory share (chat-files-memory.e2e.test.ts,
 * queue.chatMemory.ts): a Redis of the file's own with n8n's credential for it, the agent's
 * Execute requests the emulator received, and one chat message to a public Chat Trigger.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { PlatformEmulator } from '../../dev/emulator';
import { sleep } from '../../dev/n8n/harness';
import { startRedis, type Redis } from '../../dev/n8n/redis';

export interface MemoryRedis {
	redis: Redis;
	/** n8n's Redis credential for it, to import with the workflows. */
	credential: { id: string; name: string; type: 'redis'; data: Record<string, unknown> };
	/** Stops Redis (again, when a case stopped it) and removes its folder. */
	stop(): Promise<void>;
}

/** redis-server in a temporary folder, and the n8n credential `credentialId` that points at it. */
export async function startMemoryRedis(credentialId: string): Promise<MemoryRedis> {
	const folder = await mkdtemp(join(tmpdir(), 'chat-memory-redis-'));
	let redis: Redis;
	try {
		redis = await startRedis(folder);
	} catch (error) {
		await rm(folder, { recursive: true, force: true });
		throw error;
	}
	return {
		redis,
		credential: {
			id: credentialId,
			name: 'Redis (chat memory)',
			type: 'redis',
			data: { host: '127.0.0.1', port: redis.port, database: 0, password: '' },
		},
		async stop() {
			await redis.stop();
			await rm(folder, { recursive: true, force: true });
		},
	};
}

/** The bodies of the Execute requests of agent `agentId` that the emulator received. */
export function agentExecutes(
	emu: PlatformEmulator,
	agentId: number,
): Array<Record<string, unknown>> {
	return emu.requests
		.filter((r) => r.method === 'POST' && r.path === `/agents/${agentId}/execute`)
		.map((r) => r.body as Record<string, unknown>);
}

/**
 * One chat message to a public chat at `url` (…/webhook/<id>/chat): JSON, or multipart with files
 * as n8n's chat sends a message with attachments (fields chatInput, action, sessionId; each file
 * as `files`). Asked again while n8n answers 404 (activation registers the webhook a moment later).
 */
export async function sendChatMessage(
	url: string,
	sessionId: string,
	chatInput: string,
	files: Array<{ name: string; text: string }> = [],
): Promise<{ status: number; text: string }> {
	for (let attempt = 0; ; attempt++) {
		let body: string | FormData;
		const headers: Record<string, string> = {};
		if (files.length) {
			body = new FormData();
			body.append('chatInput', chatInput);
			body.append('action', 'sendMessage');
			body.append('sessionId', sessionId);
			for (const file of files)
				body.append('files', new Blob([file.text], { type: 'text/plain' }), file.name);
		} else {
			body = JSON.stringify({ action: 'sendMessage', sessionId, chatInput });
			headers['content-type'] = 'application/json';
		}
		const response = await fetch(url, { method: 'POST', headers, body });
		const text = await response.text();
		if (response.status === 404 && attempt < 60) {
			await sleep(500);
			continue;
		}
		return { status: response.status, text };
	}
}
