/**
 * The two ways the README installs a community package into an n8n user folder:
 * - installCommunityPackage, as n8n's community package installer does (Settings → Community
 *   Nodes): unpack into `.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies,
 *   install the runtime ones in the package's own folder, and list the package in
 *   `.n8n/nodes/package.json`;
 * - installByHand, as a person does in a shell: `npm install <package>` in `.n8n/nodes`, the
 *   package.json as published (peers included), with the README's flags.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { run } from './processes';

/** The arguments n8n's installer gives `npm install` (community-packages.service.js). */
const INSTALLER_NPM_ARGS = [
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

/** The name in a packed package's package.json. */
async function packageNameOf(tarball: string): Promise<string> {
	const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json'], {
		what: `read the package.json of ${tarball}`,
	});
	return (JSON.parse(stdout) as { name: string }).name;
}

/**
 * n8n's installer on a packed package. `env` is the instance's environment (npm runs on its Node
 * 24, in its temp folder).
 */
export async function installCommunityPackage(
	userFolder: string,
	tarball: string,
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const name = await packageNameOf(tarball);
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', name);
	await rm(packageDir, { recursive: true, force: true });
	await mkdir(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		what: 'unpack the package',
	});
	const pkgPath = join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(
		await readFile(pkgPath, 'utf8'),
	);
	void devDependencies;
	void peerDependencies;
	void optionalDependencies;
	await writeFile(pkgPath, JSON.stringify(pkg, null, 2), 'utf8');
	await run('npm', ['install', '--omit=dev', ...INSTALLER_NPM_ARGS], {
		cwd: packageDir,
		env,
		timeoutMs: 5 * 60_000,
		what: `npm install in ${packageDir}`,
	});
	const listPath = join(nodesDir, 'package.json');
	const list = existsSync(listPath)
		? JSON.parse(await readFile(listPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	list.dependencies = { ...(list.dependencies ?? {}), [name]: pkg.version };
	await writeFile(listPath, JSON.stringify(list, null, 2), 'utf8');
}

/**
 * `npm install <args>` in the user folder's `.n8n/nodes`, as the README's hand install is typed
 * (a packed package's path stands for its name); `args` empty runs `npm install` alone there.
 */
export async function installByHand(
	userFolder: string,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	await mkdir(nodesDir, { recursive: true });
	await run('npm', ['install', '--audit=false', '--fund=false', ...args], {
		cwd: nodesDir,
		env,
		timeoutMs: 5 * 60_000,
		what: `npm install ${args.join(' ')} in ${nodesDir}`,
	});
}
