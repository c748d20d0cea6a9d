#!/usr/bin/env node
/**
 * npm run bench [-- --only paging,items --runs 5 --quick --time-scale 20]
 *
 * Starts test/bench/run.ts under ts-node with the flags the in-process cases need: the nodes'
 * TypeScript sources import eventsource-parser, which ships ES modules only (Node 20 loads them
 * from CommonJS with --experimental-require-module; the build bundles it instead), and
 * `.ts` files must win over the nodes' `.node.json` codex files of the same name.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
// require() of ES modules: a flag on Node 20.17+ and 22.0-22.11, the default from 22.12 on
const flags =
	major < 22 || (major === 22 && minor < 12)
		? ['--experimental-require-module', '--disable-warning=ExperimentalWarning']
		: [];

const child = spawn(
	process.execPath,
	[
		...flags,
		'-r',
		'ts-node/register/transpile-only',
		join(REPO, 'test', 'bench', 'run.ts'),
		...process.argv.slice(2),
	],
	{ cwd: REPO, stdio: 'inherit', env: { ...process.env, TS_NODE_PREFER_TS_EXTS: 'true' } },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
