/**
 * Installs the packed package into an n8n user folder the way n8n's community package installer
 * does: unpack into `.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies,
 * install the runtime ones, and list the package in `.n8n/nodes/package.json`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { PACKAGE_NAME } from '../constants';
import { run } from './processes';

/** `env` is the instance's environment (npm runs on its Node 24, in its temp folder). */
export async function installCommunityPackage(
	userFolder: string,
	tarball: string,
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
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
	await run(
		'npm',
		[
			'install',
			'--omit=dev',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{
			cwd: packageDir,
			env,
			timeoutMs: 5 * 60_000,
			what: `npm install in ${packageDir}`,
		},
	);
	const listPath = join(nodesDir, 'package.json');
	const list = existsSync(listPath)
		? JSON.parse(await readFile(listPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	list.dependencies = { ...(list.dependencies ?? {}), [PACKAGE_NAME]: pkg.version };
	await writeFile(listPath, JSON.stringify(list, null, 2), 'utf8');
}
