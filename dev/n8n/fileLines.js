/**
 * The n8n lines an end-to-end (or measure) test file runs on, declared in its header comment:
 * `@lines 1.x 2.x (why)` on a line of it. A file without the tag runs on 2.x only: n8n 1.x runs the
 * files whose behaviour differs there (docs/development.md, "The end-to-end suite"). Plain
 * JavaScript: jest.config.js reads it (a file none of whose lines is selected is not run), and
 * so do selectedLines() and the run's shared n8n of each line (dev/n8n/lines.ts, test/setup/).
 */
const { readFileSync } = require('node:fs');

const LINES = ['1.x', '2.x'];
const DEFAULT_LINES = ['2.x'];

/**
 * The lines the file at `path` declares.
 * @param {string} path
 * @returns {Array<'1.x' | '2.x'>}
 */
function declaredLines(path) {
	const text = readFileSync(path, 'utf8');
	const header = text.startsWith('/**') ? text.slice(0, text.indexOf('*/')) : '';
	const tag = /^\s*\*\s*@lines\b(.*)$/m.exec(header);
	if (!tag) return DEFAULT_LINES;
	// the lines, then a reason in brackets if any: `@lines 1.x 2.x (why 1.x too)`
	const named = tag[1].split('(')[0].trim().split(/\s+/).filter(Boolean);
	const unknown = named.filter((line) => !LINES.includes(line));
	if (named.length === 0 || unknown.length > 0)
		throw new Error(
			`${path}: "@lines${tag[1]}" names ${unknown.length ? unknown.join(', ') : 'no line'}; write the lines it runs on, of ${LINES.join(' and ')}`,
		);
	return /** @type {Array<'1.x' | '2.x'>} */ (named);
}

/**
 * The lines E2E_N8N_LINES selects ("1", "2", "1.x,2.x"; unset: both).
 * @returns {Array<'1.x' | '2.x'>}
 */
function wantedLines() {
	const wanted = (process.env.E2E_N8N_LINES || '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	if (wanted.length === 0) return /** @type {Array<'1.x' | '2.x'>} */ ([...LINES]);
	return /** @type {Array<'1.x' | '2.x'>} */ (
		LINES.filter((line) => wanted.some((w) => line === w || line === `${w}.x`))
	);
}

/**
 * True when the file's header has a line `@light`: a short file (under a minute alone, most of them
 * waiting on the emulator's clock: a chat's pieces, a paced Return All, a run's emulated minutes). scripts/test.sh
 * runs these in an end-to-end run of their own (E2E_PART=light, one worker) once the fast tests
 * have ended, beside the run of the others (E2E_PART=others), to use the CPU the others leave idle.
 * @param {string} path
 */
function isLight(path) {
	const text = readFileSync(path, 'utf8');
	const header = text.startsWith('/**') ? text.slice(0, text.indexOf('*/')) : '';
	return /^\s*\*\s*@light\b/m.test(header);
}

/**
 * Whether the file at `path` belongs to the part E2E_PART selects: `light` (the @light files),
 * `others` (the rest), unset or empty (every file).
 * @param {string} path
 */
function inSelectedPart(path) {
	const part = process.env.E2E_PART || '';
	if (part === '') return true;
	if (part !== 'light' && part !== 'others')
		throw new Error(`E2E_PART="${part}": write light, others, or leave it unset for every file`);
	return isLight(path) === (part === 'light');
}

module.exports = { declaredLines, wantedLines, isLight, inSelectedPart, DEFAULT_LINES };
