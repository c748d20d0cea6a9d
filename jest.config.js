/** Five projects: fast unit tests; the self-tests of the emulator and of the in-process n8n
 * (infra); the nodes' integration tests against the emulator over loopback, a folder per
 * resource; among them, the pace's timing tests (pace-timing), which read when the emulator saw
 * each request and run alone, each file in a new process (scripts/test.sh); and end-to-end tests that run the
 * packed package inside real n8n 1.x and 2.x. */
const tsJest = { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
// eventsource-parser ships ES modules only; the build bundles it, the tests transform it.
const transformIgnorePatterns = ['/node_modules/(?!eventsource-parser/)'];
// npm start keeps its n8n data (with package.json files) in .tmp/: not for jest's module map.
const modulePathIgnorePatterns = ['<rootDir>/.tmp/'];
// The integration files that check the spacing of paced requests by their arrival times at the
// emulator, which lives in the test's own process: a test file busy beside them in another worker
// delays one arrival and bunches the next (a 250 ms interval seen as 170 ms), so they run alone.
const paceTiming = [
	'across-resources/batch-size',
	'across-resources/cold-pace',
	'across-resources/faults-rate-limit',
	'across-resources/interactive-first',
	'across-resources/learned-pace',
	'across-resources/pace-slots',
	'across-resources/paging',
	'across-resources/rate-limits',
	'across-resources/transport',
	'chatModel/chat-model-calls',
	'file/upload',
].map((name) => `<rootDir>/test/integration/${name}.test.ts`);

/** @type {import('jest').Config} */
module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: tsJest,
			transformIgnorePatterns,
			modulePathIgnorePatterns,
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
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
			testPathIgnorePatterns: paceTiming,
			setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
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
		},
	],
};
