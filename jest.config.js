/** Seven projects: fast unit tests; the pace's unit tests that read the clock (unit-timing); the
 * self-tests of the emulator and of the in-process n8n (infra); the nodes' integration tests
 * against the emulator over loopback, a folder per resource; the pace's timing tests
 * (`*.timing.test.ts` among them: pace-timing; both timing projects run alone, by
 * scripts/test.sh); end-to-end tests that run the packed package inside real n8n, sharing one n8n
 * per line where they can (test/setup/e2eLines.ts), each file on the lines its header declares
 * (2.x unless it says `@lines 1.x 2.x`); and measurements in real n8n (`npm run measure`, not part
 * of npm test or CI: they print figures, docs/performance.md quotes them). */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { declaredLines, wantedLines } = require('./dev/n8n/fileLines');

const tsJest = { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
// eventsource-parser ships ES modules only; the build bundles it, the tests transform it.
const transformIgnorePatterns = ['/node_modules/(?!eventsource-parser/)'];
// npm start keeps its n8n data (with package.json files) in .tmp/: not for jest's module map.
const modulePathIgnorePatterns = ['<rootDir>/.tmp/'];
// Tests that read when the emulator (in the test's own process) saw each request: a busy file
// beside them would shift the arrivals, so they run alone (docs/development.md, Tests and CI time).
const paceTiming = ['<rootDir>/test/integration/**/*.timing.test.ts'];

/**
 * The files of `folder` ending in `suffix` none of whose declared lines E2E_N8N_LINES selects, as
 * jest's ignore patterns: they would have nothing to run (E2E_N8N_LINES=1 runs the 1.x files).
 */
function filesOffTheLines(folder, suffix) {
	const wanted = wantedLines();
	return readdirSync(join(__dirname, folder))
		.filter((name) => name.endsWith(suffix))
		.filter((name) => !declaredLines(join(__dirname, folder, name)).some((l) => wanted.includes(l)))
		.map((name) => `<rootDir>/${folder}/${name.replace(/\./g, '\\.')}$`);
}

/** The settings of the projects that run real n8n (e2e, measure). */
function realN8nProject(displayName, folder, suffix) {
	return {
		displayName,
		testEnvironment: 'node',
		transform: tsJest,
		transformIgnorePatterns,
		modulePathIgnorePatterns,
		testMatch: [`<rootDir>/${folder}/**/*${suffix}`],
		testPathIgnorePatterns: ['/node_modules/', ...filesOffTheLines(folder, suffix)],
		setupFilesAfterEnv: ['<rootDir>/test/setup/e2e.ts'],
		// one n8n per line for the files that share it (n8nOfLine in test/e2e/lineN8n.ts)
		globalSetup: '<rootDir>/test/setup/e2eLines.ts',
		globalTeardown: '<rootDir>/test/setup/e2eLinesStop.ts',
	};
}

/** @type {import('jest').Config} */
module.exports = {
	// a unit test that ends in milliseconds on an idle machine still ends on a busy one (a neighbour
	// at full load makes it several times slower): no test fails on jest's 5 s default
	testTimeout: 30_000,
	// without the times of a run before, the files marked @slow first (the e2e files of minutes)
	testSequencer: '<rootDir>/test/setup/testOrder.js',
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
			testPathIgnorePatterns: ['\\.timing\\.test\\.ts$'],
		},
		{
			displayName: 'infra',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
		},
		{
			displayName: 'integration',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
			testPathIgnorePatterns: ['\\.timing\\.test\\.ts$'],
			setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
		},
		{
			// the pace's unit tests that read the clock: run alone, as pace-timing is
			displayName: 'unit-timing',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/unit/**/*.timing.test.ts'],
		},
		{
			displayName: 'pace-timing',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: paceTiming,
			setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
		},
		realN8nProject('e2e', 'test/e2e', '.e2e.test.ts'),
		realN8nProject('measure', 'test/measure', '.measure.test.ts'),
	],
};
