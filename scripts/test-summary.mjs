// The end of `npm test`: the ten slowest test files and those over the few minutes a file may
// take, the end-to-end tests run on each n8n line, then the one closing line CI reads, "N passed,
// N failed". A missing results file counts as a failure.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let pending = 0;
const files = [];
// end-to-end tests that ran, by the n8n line their describe names ("n8n 2.x (2.41.1)", "n8n 2.41.1:")
const byLine = {};
for (const file of process.argv.slice(2)) {
	if (!fs.existsSync(file)) {
		failed++;
		continue;
	}
	const run = JSON.parse(fs.readFileSync(file, 'utf8'));
	passed += run.numPassedTests;
	failed += run.numFailedTests + run.numRuntimeErrorTestSuites;
	pending += run.numPendingTests;
	for (const suite of run.testResults) {
		const seconds = (suite.endTime - suite.startTime) / 1000;
		files.push({ name: path.relative(process.cwd(), suite.name), seconds });
		if (!suite.name.endsWith('.e2e.test.ts')) continue;
		for (const test of suite.assertionResults ?? []) {
			const line = /\bn8n (\d)\.(?:x\b|\d)/.exec(test.fullName)?.[1];
			if (line && test.status !== 'pending') byLine[`${line}.x`] = (byLine[`${line}.x`] ?? 0) + 1;
		}
	}
}
files.sort((a, b) => b.seconds - a.seconds);
console.log('\nThe ten slowest test files:');
for (const { name, seconds } of files.slice(0, 10)) {
	console.log(`${seconds.toFixed(0).padStart(6)} s  ${name}`);
}
// a file longer than this holds the run's end back: split it or share its set-up (docs/development.md)
const FEW_MINUTES = 240;
const long = files.filter(({ seconds }) => seconds > FEW_MINUTES).map(({ name }) => name);
console.log(`Files over ${FEW_MINUTES} s: ${long.length ? long.join(', ') : 'none'}`);
const lines = Object.keys(byLine).sort();
if (lines.length)
	console.log(
		`End-to-end tests run by n8n line: ${lines.map((l) => `${l} ${byLine[l]}`).join(', ')}`,
	);
console.log(`\n${passed} passed, ${failed} failed` + (pending ? `, ${pending} skipped` : ''));
