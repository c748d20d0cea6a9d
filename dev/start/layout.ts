/**
 * Where npm start's n8n lives, so that it loads the package as a user's n8n does. n8n loads a
 * community package with Node's own `require`, which walks up from the package's folder through
 * every `node_modules` above it before n8n's own modules (n8n only adds those as a fallback). A
 * copy of `n8n-workflow` on that walk (a checkout's `node_modules`, or one npm put in the nodes
 * folder) wins, and n8n's AI Agent no longer recognises the package's errors as n8n's ("Original
 * error: NodeApiError"). So n8n's folder is outside the checkout, in the user's data folder,
 * and every start checks the walk.
 */
import { existsSync, realpathSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

import { PACKAGE_NAME } from '../constants';
import { n8nInstallDir, type N8nLine } from '../n8n/lines';
import { REPO_ROOT } from '../n8n/processes';

/** Where the user's programs keep their data: XDG_DATA_HOME (or ~/.local/share), macOS's and Windows' own. */
export function userDataFolder(
	env: NodeJS.ProcessEnv = process.env,
	platform: NodeJS.Platform = process.platform,
	home: string = homedir(),
): string {
	if (platform === 'win32') return env.LOCALAPPDATA || join(home, 'AppData', 'Local');
	if (platform === 'darwin') return join(home, 'Library', 'Application Support');
	return env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)
		? env.XDG_DATA_HOME
		: join(home, '.local', 'share');
}

/**
 * npm start's n8n folder: N8N_DEV_FOLDER when set, else `<user data folder>/n8n-nodes-agent-platform/
 * n8n-dev-<line>`, kept between runs.
 */
export function devN8nFolder(line: N8nLine, env: NodeJS.ProcessEnv = process.env): string {
	if (env.N8N_DEV_FOLDER) return resolve(env.N8N_DEV_FOLDER);
	return join(userDataFolder(env), PACKAGE_NAME, `n8n-dev-${line.line}`);
}

/** Where npm start kept n8n's folder before (inside the checkout), for a note on moving it. */
export function formerDevN8nFolder(line: N8nLine): string {
	return join(REPO_ROOT, '.tmp', `n8n-dev-${line.line}`);
}

/** The folder n8n installs a community package into, below its user folder. */
export function installedPackageFolder(userFolder: string, name = PACKAGE_NAME): string {
	return join(userFolder, '.n8n', 'nodes', 'node_modules', name);
}

/**
 * Every copy of `n8n-workflow` the package's `require` reaches before n8n's own: Node's walk-up
 * from the package's folder (Module._nodeModulePaths, the list `require` itself searches), less
 * any copy inside n8n's install. Empty when the package gets n8n's own, as in a user's n8n.
 */
export function n8nWorkflowCopiesReached(packageFolder: string, line: N8nLine): string[] {
	const nodeModulePaths = (Module as unknown as { _nodeModulePaths(from: string): string[] })
		._nodeModulePaths;
	const n8nOwn = realpathOrSelf(n8nInstallDir(line));
	return nodeModulePaths(join(packageFolder, 'dist'))
		.map((dir) => join(dir, 'n8n-workflow'))
		.filter((copy) => existsSync(join(copy, 'package.json')))
		.filter((copy) => relative(n8nOwn, realpathOrSelf(copy)).startsWith('..'));
}

function realpathOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * Fails, saying what to do, when the installed package would get another `n8n-workflow` than
 * n8n's own.
 */
export function assertLoadsAsUsersDo(userFolder: string, line: N8nLine): void {
	const copies = n8nWorkflowCopiesReached(installedPackageFolder(userFolder), line);
	if (copies.length === 0) return;
	throw new Error(
		`n8n would load the package with another n8n-workflow than its own (${copies.join(', ')}), ` +
			'and its AI Agent would then show the package\'s errors as "Original error: NodeApiError". ' +
			"Keep n8n's folder out of any folder with a node_modules holding n8n-workflow (a checkout): unset N8N_DEV_FOLDER, or point it elsewhere.",
	);
}
