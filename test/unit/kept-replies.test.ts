/**
 * What the process keeps of the platform's answers (helpers/lookups/keptReplies.ts) on its own: every
 * fresh answer replaces the kept one; while the rate limit holds the key (PaceHeldError) the kept
 * one is given, marked with its age past KEPT_REPLIES.markAfterMs; any other failure, or nothing
 * kept, fails as before; the store is bounded, the least recently kept going first.
 */
import {
	freshOrKept,
	keptReply,
	readAndKeep,
	KEPT_REPLIES,
} from '../../nodes/AgentPlatform/helpers/lookups/keptReplies';
import type { PlatformContext } from '../../nodes/AgentPlatform/transport/types';
import { keyHeldError } from '../../nodes/AgentPlatform/transport/pace/heldError';

const ctx = { getNode: () => ({ name: 'Agent Platform' }) } as unknown as PlatformContext;

/** The error an editor lookup gets while the key is held for 40 s. */
function held(): Error {
	return keyHeldError(ctx, 40_000);
}

let n = 0;
const fresh = () => `unit ${++n}`;

describe('recent answers', () => {
	const saved = { ...KEPT_REPLIES };
	afterEach(() => Object.assign(KEPT_REPLIES, saved));

	it('answers fresh and keeps it; while the key is held gives the kept answer, marked once old', async () => {
		const key = fresh();
		expect(await freshOrKept(ctx, key, async () => ['a'])).toEqual({ value: ['a'] });
		expect(await freshOrKept(ctx, key, async () => ['b'])).toEqual({ value: ['b'] });
		// young: given as it is
		expect(
			await freshOrKept(ctx, key, async () => {
				throw held();
			}),
		).toEqual({ value: ['b'] });
		KEPT_REPLIES.markAfterMs = -1;
		expect(
			await freshOrKept(ctx, key, async () => {
				throw held();
			}),
		).toEqual({
			value: ['b'],
			note: expect.stringMatching(
				/^As of 0 seconds ago: the platform's rate limit holds this API key for about (39|40) more seconds$/,
			),
		});
	});

	it('fails as before with nothing kept, or on any other error', async () => {
		await expect(
			freshOrKept(ctx, fresh(), async () => {
				throw held();
			}),
		).rejects.toThrow(/holds this API key for about/);
		const key = fresh();
		await freshOrKept(ctx, key, async () => 1);
		await expect(
			freshOrKept(ctx, key, async () => {
				throw new Error('The agent was not found');
			}),
		).rejects.toThrow('The agent was not found');
		expect(keptReply(key)?.value).toBe(1);
	});

	it('shares one read among concurrent readers and keeps only what succeeded', async () => {
		const key = fresh();
		let reads = 0;
		const read = async () => {
			reads++;
			await new Promise((resolve) => setTimeout(resolve, 20));
			return reads;
		};
		expect(await Promise.all([readAndKeep(key, read), readAndKeep(key, read)])).toEqual([1, 1]);
		await expect(
			readAndKeep(key, async () => {
				throw new Error('refused');
			}),
		).rejects.toThrow('refused');
		expect(keptReply(key)?.value).toBe(1);
	});

	it('keeps at most KEPT_REPLIES.maxEntries, dropping the least recently kept', async () => {
		KEPT_REPLIES.maxEntries = 3;
		const keys = [fresh(), fresh(), fresh(), fresh()];
		for (const key of keys) await readAndKeep(key, async () => key);
		expect(keys.map((key) => keptReply(key)?.value)).toEqual([undefined, ...keys.slice(1)]);
		// kept again, the second is now the newest: the third goes next
		await readAndKeep(keys[1], async () => keys[1]);
		await readAndKeep(fresh(), async () => 'new');
		expect(keys.map((key) => keptReply(key) !== undefined)).toEqual([false, true, false, true]);
	});
});
