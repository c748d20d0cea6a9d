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

module.exports = { declaredLines, wantedLines, DEFAULT_LINES };
