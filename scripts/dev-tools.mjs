/**
 * What npm start and npm run screenshots take from dev/: the n8n harness, the loopback helpers,
 * the emulator and the browser. They are TypeScript; ts-node (a dev dependency) compiles them on
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
	loadExample,
	EXAMPLE_CREDENTIALS,
	DEV_PLATFORM,
	DEV_SIGN_IN,
	log,
	setLogPrefix,
} = harness;
export const { freePort, portIsFree } = require('../dev/loopback.ts');
/** How npm start runs the emulator in a process of its own: node TS_NODE_BIN EMULATOR_CLI … */
export const TS_NODE_BIN = require.resolve('ts-node/dist/bin.js');
export const EMULATOR_CLI = join(REPO, 'dev', 'emulator', 'cli.ts');
/** Loaded when asked for (npm start does not load them). */
export const loadEmulator = () => require('../dev/emulator/index.ts');
export const loadBrowser = () => require('../dev/n8n/browser.ts');
