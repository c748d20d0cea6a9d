/**
 * End-to-end harness: runs the packed package inside a real n8n (1.x and 2.x), each
 * instance isolated in its own temporary user folder, with its own free ports. This file
 * gathers what the tests, npm start, npm run screenshots and the benchmarks use; each job
 * has its file beside it (docs/development.md, Layout).
 *
 * Recipes and pitfalls (test/e2e/README.md has the details). In short: n8n runs on
 * Node 24 from the install cache, `n8n execute --id` prints log lines and then the
 * run's JSON (from the first line that is exactly "{"), and a running n8n is driven
 * through its public API with an API key created after the owner setup.
 */
export * from './examples';
export * from './lines';
export { DEV_PLATFORM, DEV_SIGN_IN, NODE_TYPES, PACKAGE_NAME } from '../constants';
export { DEFAULT_OWNER, type OwnerAccount } from './client';
export { N8nInstance, type N8nInstanceOptions, type SharedN8n } from './instance';
export { log, secondsSince, setLogPrefix } from './log';
export { packageSourceHash, packPackage } from './pack';
export { REPO_ROOT, run, type RunOptions, type RunResult } from './processes';
export * from './runResults';
export { sleep, waitFor } from './wait';
