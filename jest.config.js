/** Three projects: fast unit tests, integration tests against the emulator over loopback,
 * and end-to-end tests that run the packed package inside real n8n 1.x and 2.x. */
const tsJest = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }] };

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform: tsJest, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform: tsJest,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      testTimeout: 60000,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform: tsJest,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
      testTimeout: 600000,
    },
  ],
};
