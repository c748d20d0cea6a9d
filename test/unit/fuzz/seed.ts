/**
 * The seeded PRNG of the fuzz tests: the seed is printed, and
 * `FUZZ_SEED=<seed> npx jest --selectProjects unit --runTestsByPath test/unit/fuzz/<file>`
 * replays a failure (`FUZZ_RUNS=<n>` runs more cases).
 */
jest.setTimeout(120_000);

export const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
export const RUNS = Number(process.env.FUZZ_RUNS ?? 0);
console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED})`);

/** mulberry32: small, fast, good enough to pick cases; the same seed gives the same cases. */
export function prng(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)];
	const chance = (p: number) => next() < p;
	return { next, int, pick, chance };
}
export type Random = ReturnType<typeof prng>;

/** Text pieces for values: ASCII, 2-, 3- and 4-byte UTF-8, JSON punctuation, colons, spaces, tabs. */
export const PIECES = [
	'a',
	'Z',
	'7',
	' ',
	':',
	': ',
	'{"t":',
	'"',
	'}',
	'é',
	'ß',
	'€',
	'中文',
	'👋',
	'🧪',
	'\t',
	'data:',
	'ok',
	'[DONE]',
];

/** Random text of `min` to `max` pieces. */
export function text(r: Random, min: number, max: number): string {
	let out = '';
	for (let i = r.int(min, max); i > 0; i--) out += r.pick(PIECES);
	return out;
}
