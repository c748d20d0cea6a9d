/**
 * What npm start and npm run screenshots take from dev/: the n8n harness, the loopback helpers,
 * npm start's pieces (dev/start/), the emulator and the browser. They are TypeScript; ts-node (a dev dependency) compiles them on
 * the fly, registered once here.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
require('ts-node').register({
	transpileOnly: true,
	project: join(REPO, 'tsconfig.json'),
	compilerOptions: { module: 'commonjs' },
});

const harness = require('../dev/n8n/harness.ts');
export const {
	N8nInstance,
	ensureN8n,
	packPackage,
	lineByName,
	agentPlatformCredential,
	openAiEmulatorCredential,
	exampleNames,
	EXAMPLE_CREDENTIALS,
	DEV_PLATFORM,
	DEV_SIGN_IN,
	log,
	secondsSince,
	setLogPrefix,
} = harness;
export const { freePort, portIsFree } = require('../dev/loopback.ts');
export const { startEmulatorProcess } = require('../dev/start/emulatorProcess.ts');
export const {
	changedSinceImport,
	missingExamples,
	noteImported,
	presentExamples,
} = require('../dev/start/examples.ts');
export const { selfCheck, smokeTest } = require('../dev/start/checks.ts');
export const { followLog } = require('../dev/start/output.ts');
export const {
	assertLoadsAsUsersDo,
	devN8nFolder,
	formerDevN8nFolder,
} = require('../dev/start/layout.ts');
/** Loaded when asked for (npm start does not load them). */
export const loadEmulator = () => require('../dev/emulator/index.ts');
export const loadBrowser = () => require('../dev/n8n/browser.ts');
