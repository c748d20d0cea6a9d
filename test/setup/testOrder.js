/**
 * The order of the test files (jest's testSequencer), for the end-to-end files' sake. With the times of
 * a run before (jest's cache), jest's own: the slowest first. Without them (a clean clone, as CI
 * is), jest would go by file size, and a short file that runs a long suite written elsewhere
 * (editor-examples) would start last and end the run minutes after the others: so the
 * files whose header says `@slow` (they run for minutes) go first, each group by size.
 */
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** True when the file's header comment has a line `@slow`. */
function slow(path) {
	const text = readFileSync(path, 'utf8');
	if (!text.startsWith('/**')) return false;
	return /^\s*\*\s*@slow\b/m.test(text.slice(0, text.indexOf('*/')));
}

class E2eOrder extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		if (sorted.every((test) => test.duration != null)) return sorted;
		// Array.prototype.sort is stable: within each group, jest's order (by size) stays
		return [...sorted].sort((a, b) => Number(slow(b.path)) - Number(slow(a.path)));
	}
}

module.exports = E2eOrder;
