/**
 * The package as n8n installs it: built and packed once per set of sources, the tarball kept in
 * the temp folder under a hash of them, builds serialised across processes by a lock.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { PACKAGE_NAME } from '../constants';
import { withLock } from './lock';
import { log, secondsSince } from './log';
import { REPO_ROOT, run } from './processes';

let packed: Promise<string> | undefined;

/** What goes into the tarball: the build's inputs and the files npm pack always adds. */
const PACKAGE_INPUTS = [
	'package.json',
	'package-lock.json',
	'gulpfile.js',
	'tsconfig.json',
	'README.md',
	'LICENSE',
	'LICENSE.md',
	'nodes',
	'credentials',
];

/** A hash of the package's sources: the same sources give the same tarball. */
export function packageSourceHash(): string {
	const hash = createHash('sha256');
	const add = (rel: string) => {
		const abs = join(REPO_ROOT, rel);
		if (!existsSync(abs)) return;
		if (statSync(abs).isDirectory()) {
			for (const entry of readdirSync(abs).sort()) add(join(rel, entry));
		} else {
			hash.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
		}
	};
	PACKAGE_INPUTS.forEach(add);
	return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the package (`npm run build`) and packs it, once per set of sources: the tarball
 * is kept in the temp folder under a hash of the sources, so later test files and runs
 * reuse it while nothing changed. Builds are serialised by a lock (two builds at once
 * would clean each other's dist/). `built`: the caller has just built dist/ from these sources
 * (release:check), so only the pack is left; the end-to-end tests after it then pack nothing.
 * E2E_TARBALL=/path/to.tgz skips all this.
 */
export function packPackage({ built = false }: { built?: boolean } = {}): Promise<string> {
	if (process.env.E2E_TARBALL) return Promise.resolve(resolve(process.env.E2E_TARBALL));
	packed ??= (async () => {
		const dest = join(tmpdir(), `${PACKAGE_NAME}-pack-${packageSourceHash()}`);
		const record = join(dest, 'tarball-path.txt');
		const cached = () => {
			const path = existsSync(record) ? readFileSync(record, 'utf8').trim() : '';
			return path && existsSync(path) ? path : undefined;
		};
		const hit = cached();
		if (hit) return hit;
		return await withBuildLock(async () => {
			const again = cached(); // built by another process while we waited
			if (again) return again;
			const started = Date.now();
			if (!built) {
				log('building the package (npm run build)');
				await run('npm', ['run', 'build'], { timeoutMs: 5 * 60_000, what: 'npm run build' });
			}
			await rm(dest, { recursive: true, force: true });
			await mkdir(dest, { recursive: true });
			const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest], {
				timeoutMs: 2 * 60_000,
				what: 'npm pack',
			});
			const info = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
			const tarball = join(dest, info[0].filename);
			await writeFile(record, tarball, 'utf8');
			log(`packed ${tarball} in ${secondsSince(started)}`);
			return tarball;
		});
	})();
	packed.catch(() => (packed = undefined));
	return packed;
}

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
	return await withLock(join(tmpdir(), `${PACKAGE_NAME}-build.lock`), fn);
}
