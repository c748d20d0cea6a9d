/**
 * Fuzz test of the trigger's secret check (helpers/trigger/delivery.ts), driven by a seeded PRNG (seed.ts).
 */
import crypto from 'node:crypto';
import {
	newWebhookSecret,
	secretMatches,
} from '../../../nodes/AgentPlatform/helpers/trigger/delivery';
import { RUNS, SEED, prng, text } from './seed';

describe(`secretMatches, fuzzed (seed ${SEED})`, () => {
	it('matches exactly the expected secret, and always compares two 32-byte digests in constant time', () => {
		const random = prng(SEED ^ 0x5ec7);
		const compare = jest.spyOn(crypto, 'timingSafeEqual');
		try {
			for (let i = 0; i < (RUNS || 500); i++) {
				const expected = newWebhookSecret();
				const received = random.pick([
					() => expected,
					() => expected.slice(0, random.int(0, expected.length - 1)), // a prefix
					() => `${expected}${text(random, 1, 3)}`, // longer
					() => expected.slice(0, -1) + (expected.endsWith('0') ? '1' : '0'), // last character changed
					() => text(random, 0, 20),
					() => expected.toUpperCase(),
				])();
				compare.mockClear();
				const where = `case ${i} of seed ${SEED}: ${JSON.stringify(received)}`;
				expect({ where, match: secretMatches(received, expected) }).toEqual({
					where,
					match: received === expected,
				});
				// whatever was sent, one comparison of two 32-byte digests: no early exit on length or prefix
				expect(compare).toHaveBeenCalledTimes(1);
				const [a, b] = compare.mock.calls[0] as [Buffer, Buffer];
				expect([a.length, b.length]).toEqual([32, 32]);
			}
		} finally {
			compare.mockRestore();
		}
	});
});
