/** Six projects: fast unit tests; the pace's unit tests that read the clock (unit-timing); the
 * self-tests of the emulator and of the in-process n8n (infra); the nodes' integration tests
 * against the emulator over loopback, a folder per resource; the pace's timing tests
 * (`*.timing.test.ts` among them: pace-timing; both timing projects run alone, by
 * scripts/test.sh); and end-to-end tests that run the packed package inside real n8n 1.x and 2.x,
 * sharing one n8n per line where they can (test/setup/e2eLines.ts). */
const tsJest = { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
// eventsource-parser ships ES modules only; the build bundles it, the tests transform it.
const transformIgnorePatterns = ['/node_modules/(?!eventsource-parser/)'];
// npm start keeps its n8n data (with package.json files) in .tmp/: not for jest's module map.
const modulePathIgnorePatterns = ['<rootDir>/.tmp/'];
// Tests that read when the emulator (in the test's own process) saw each request: a busy file
// beside them would shift the arrivals, so they run alone (docs/development.md, Tests and CI time).
const paceTiming = ['<rootDir>/test/integration/**/*.timing.test.ts'];

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
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/setup/e2e.ts'],
			// one n8n per line for the files that share it (n8nOfLine in test/e2e/lineN8n.ts)
			globalSetup: '<rootDir>/test/setup/e2eLines.ts',
			globalTeardown: '<rootDir>/test/setup/e2eLinesStop.ts',
		},
	],
};
