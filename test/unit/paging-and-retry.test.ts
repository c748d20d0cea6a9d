import { itemsOf, lastPageOf } from '../../nodes/AgentPlatform/transport/paginate';
import { backoffMs, RETRY } from '../../nodes/AgentPlatform/transport/retryPolicy';
import { retryAfterMs } from '../../nodes/AgentPlatform/transport/retryAfter';

describe('the four list envelopes', () => {
	it('finds items and the last page in each', () => {
		const laravel = { current_page: 1, data: [{ id: 1 }], last_page: 3, per_page: 15 };
		const meta = { data: [{ id: 'a' }], meta: { current_page: 1, last_page: 2 } };
		const memories = {
			message: 'ok',
			memories: [{ id: 5 }],
			meta: { current_page: 1, last_page: 4, total: 40 },
		};
		const collections = {
			message: 'ok',
			collections: [{ id: 7 }],
			meta: { current_page: 2, last_page: 2 },
		};
		const files = { data: [{ id: 9 }] };
		expect([itemsOf(laravel, 'data'), lastPageOf(laravel)]).toEqual([[{ id: 1 }], 3]);
		expect([itemsOf(meta, 'data'), lastPageOf(meta)]).toEqual([[{ id: 'a' }], 2]);
		expect([itemsOf(memories, 'memories'), lastPageOf(memories)]).toEqual([[{ id: 5 }], 4]);
		expect([itemsOf(collections, 'collections'), lastPageOf(collections)]).toEqual([
			[{ id: 7 }],
			2,
		]);
		expect([itemsOf(files, 'data'), lastPageOf(files)]).toEqual([[{ id: 9 }], undefined]);
	});
	it('tolerates odd or missing paging fields', () => {
		expect(lastPageOf({ last_page: 'x' })).toBeUndefined();
		expect(lastPageOf({ last_page: 0 })).toBeUndefined();
		expect(lastPageOf({ meta: null } as never)).toBeUndefined();
		expect(itemsOf({ data: null }, 'data')).toEqual([]);
		expect(itemsOf([{ id: 1 }], 'data')).toEqual([{ id: 1 }]);
		expect(itemsOf(undefined, 'memories')).toEqual([]);
	});
});

describe('retry timing', () => {
	it('honours retry_after in the body before Retry-After', () => {
		expect(
			retryAfterMs({ error: 'Rate limit exceeded', retry_after: 2 }, { 'retry-after': '9' }),
		).toBe(2000);
		expect(retryAfterMs({}, { 'retry-after': '3' })).toBe(3000);
		expect(retryAfterMs('nope', {})).toBeUndefined();
		const inFiveSeconds = new Date(Date.now() + 5000).toUTCString();
		expect(retryAfterMs(undefined, { 'retry-after': inFiveSeconds })).toBeGreaterThan(3000);
	});
	it('backs off exponentially with a cap', () => {
		for (let attempt = 1; attempt < 12; attempt++) {
			const delay = backoffMs(attempt);
			const ceiling = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
			expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
			expect(delay).toBeLessThanOrEqual(ceiling);
		}
	});
});
