import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { lineByName } from '../../dev/n8n/lines';
import {
	devN8nFolder,
	installedPackageFolder,
	n8nWorkflowCopiesReached,
	userDataFolder,
} from '../../dev/start/layout';

const line = lineByName('2');

describe("npm start's data folder (dev/start/layout.ts)", () => {
	it("is the user's data folder on each system, XDG_DATA_HOME first on Linux", () => {
		expect(userDataFolder({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share');
		expect(userDataFolder({ XDG_DATA_HOME: '/data/ada' }, 'linux', '/home/ada')).toBe('/data/ada');
		// the XDG base directory specification ignores a relative path
		expect(userDataFolder({ XDG_DATA_HOME: 'rel' }, 'linux', '/home/ada')).toBe(
			'/home/ada/.local/share',
		);
		expect(userDataFolder({}, 'darwin', '/Users/ada')).toBe(
			'/Users/ada/Library/Application Support',
		);
		expect(
			userDataFolder({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32', 'C:\\Users\\ada'),
		).toBe('C:\\Users\\ada\\AppData\\Local');
	});

	it('names the package and the n8n line below it; N8N_DEV_FOLDER wins', () => {
		expect(devN8nFolder(line, { XDG_DATA_HOME: '/data/ada' })).toBe(
			'/data/ada/n8n-nodes-agent-platform/n8n-dev-2.x',
		);
		expect(devN8nFolder(line, { N8N_DEV_FOLDER: '/srv/n8n-dev', XDG_DATA_HOME: '/x' })).toBe(
			'/srv/n8n-dev',
		);
	});
});

describe('n8nWorkflowCopiesReached: what the installed package would get', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), 'layout-unit-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	const copyAt = (dir: string) => {
		mkdirSync(join(dir, 'n8n-workflow'), { recursive: true });
		writeFileSync(join(dir, 'n8n-workflow', 'package.json'), '{}');
	};

	it('nothing in a folder with no node_modules above', () => {
		const pkg = installedPackageFolder(join(root, 'user'));
		mkdirSync(pkg, { recursive: true });
		expect(n8nWorkflowCopiesReached(pkg, line)).toEqual([]);
	});

	it('the copy npm put in the nodes folder, and one in a node_modules above the user folder', () => {
		const pkg = installedPackageFolder(join(root, 'checkout', '.tmp', 'user'));
		mkdirSync(pkg, { recursive: true });
		copyAt(join(root, 'checkout', '.tmp', 'user', '.n8n', 'nodes', 'node_modules'));
		copyAt(join(root, 'checkout', 'node_modules'));
		expect(n8nWorkflowCopiesReached(pkg, line)).toEqual([
			join(root, 'checkout', '.tmp', 'user', '.n8n', 'nodes', 'node_modules', 'n8n-workflow'),
			join(root, 'checkout', 'node_modules', 'n8n-workflow'),
		]);
	});
});
