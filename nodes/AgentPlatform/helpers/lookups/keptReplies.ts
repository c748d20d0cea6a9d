import { createHash } from 'node:crypto';

import { BoundedMap } from '../../transport/boundedMap';
import { credentialsOf } from '../../transport/credentials';
import { asNodeError } from '../../transport/errors';
import { PaceHeldError } from '../../transport/pace';
import type { PlatformContext } from '../../transport/types';

/**
 * What this n8n process last got from the platform for a lookup (an agent's definition, a page of
 * a picker), kept in memory: executions reuse agent definitions, and while the platform's rate
 * limit holds the key, the editor answers from what it saw instead of waiting (docs/rate-limits.md).
 * Mutable so that tests can shorten the times.
 */
export const KEPT_REPLIES = {
	/** The most answers kept; the least recently used goes first. */
	maxEntries: 500,
	/** An answer kept longer than this is marked as not fresh when the editor is shown it. */
	markAfterMs: 60_000,
};

interface Kept {
	answeredAt: number;
	value: unknown;
}

const kept = new BoundedMap<string, Kept>(() => KEPT_REPLIES.maxEntries);
/** Reads under way for executions, shared by the items and runs that need the same answer. */
const reading = new Map<string, Promise<unknown>>();

/**
 * The name of a lookup's answer: per API key, Base URL and workspace, and the lookup itself (path,
 * query, page), as a digest, so that the key is never kept as a name of anything.
 */
export async function replyKey(ctx: PlatformContext, lookup: string): Promise<string> {
	const { key, decrypted } = await credentialsOf(ctx);
	const workspace = String(decrypted.data?.workspaceId ?? '').trim();
	return createHash('sha256').update(`${key}\n${workspace}\n${lookup}`).digest('hex');
}

/** The answer kept under `key`, and when it was seen. */
export function keptReply<T>(key: string): { answeredAt: number; value: T } | undefined {
	const entry = kept.get(key);
	return entry && { answeredAt: entry.answeredAt, value: entry.value as T };
}

function keep(key: string, value: unknown): void {
	kept.set(key, { answeredAt: Date.now(), value });
}

/** Drops what is kept under `key` (an answer of the platform showed it is stale). */
export function forgetReply(key: string): void {
	kept.delete(key);
}

/**
 * Reads and keeps the answer. Concurrent reads of one key share one request; a failed read keeps
 * what was kept before.
 */
export async function readAndKeep<T>(key: string, read: () => Promise<T>): Promise<T> {
	return await sharedWhilePending(reading, key, () =>
		read().then((value) => {
			keep(key, value);
			return value;
		}),
	);
}

/** The read under way for `key` in `pending`, or a new one started: callers at once share it. */
export function sharedWhilePending<T>(
	pending: Map<string, Promise<unknown>>,
	key: string,
	start: () => Promise<T>,
): Promise<T> {
	let promise = pending.get(key) as Promise<T> | undefined;
	if (!promise) {
		promise = start();
		pending.set(key, promise);
		const settled = () => pending.delete(key);
		void promise.then(settled, settled);
	}
	return promise;
}

/** "3 minutes ago", "2 hours ago". */
function ago(ms: number): string {
	const units: Array<[string, number]> = [
		['day', 86_400_000],
		['hour', 3_600_000],
		['minute', 60_000],
		['second', 1000],
	];
	for (const [unit, size] of units) {
		const count = Math.floor(ms / size);
		if (count >= 1 || unit === 'second') return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
	}
	return '';
}

/**
 * An editor lookup: the platform's answer, kept; while the platform's rate limit holds the key
 * (nothing is sent then), the answer kept from before, with a note saying how old it is once it is
 * older than KEPT_REPLIES.markAfterMs. With nothing kept, the lookup says that the key is held.
 * Editor reads are not shared with executions: a refusal meant for the editor must not fail a run.
 */
export async function freshOrKept<T>(
	ctx: PlatformContext,
	key: string,
	read: () => Promise<T>,
): Promise<{ value: T; note?: string }> {
	try {
		const value = await read();
		keep(key, value);
		return { value };
	} catch (error) {
		const last = kept.get(key);
		if (!(error instanceof PaceHeldError) || !last) throw asNodeError(ctx.getNode(), error);
		const age = Date.now() - last.answeredAt;
		const why = error.message.charAt(0).toLowerCase() + error.message.slice(1);
		return {
			value: last.value as T,
			note: age > KEPT_REPLIES.markAfterMs ? `As of ${ago(age)}: ${why}` : undefined,
		};
	}
}
