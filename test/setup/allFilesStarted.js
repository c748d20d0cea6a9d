/**
 * A jest reporter (scripts/test.sh gives it to the end-to-end run): once every file of the run has
 * started, the workers are on the last ones, and it creates the file E2E_ALL_STARTED_FILE names.
 * .ci/run starts npm start's smoke there when a busy neighbour leaves no CPU idle to go by (beside
 * a `yes` per core the last file started 19 s before the end: what it gains there is that much).
 */
const { writeFileSync } = require('node:fs');

class AllFilesStarted {
	constructor() {
		this.file = process.env.E2E_ALL_STARTED_FILE;
		this.total = 0;
		this.started = 0;
	}

	onRunStart(results) {
		this.total = results.numTotalTestSuites;
	}

	onTestStart() {
		this.started += 1;
		if (this.file && this.total > 0 && this.started === this.total) writeFileSync(this.file, '');
	}
}

module.exports = AllFilesStarted;
