/**
 * npm start's n8n loads the package as a user's n8n does. npm start decides where n8n's folder
 * lives (dev/start/layout.ts: the user's data folder, outside the checkout) and checks that the
 * installed package's `require('n8n-workflow')` reaches no copy but n8n's own; n8n's AI Agent shows
 * the errors of a package that got another copy as "Original error: NodeApiError". Here the same
 * functions place an n8n of this file's own (the user's data folder pointed at a temporary one),
 * install the package as npm start does, and run the first chat failures a newcomer meets: their
 * words in the public chat and in the editor's error.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/start-layout.e2e.test.ts --selectProjects e2e
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	DEV_PLATFORM,
	DEV_SIGN_IN,
	N8nInstance,
	PACKAGE_NAME,
	REPO_ROOT,
	ensureN8n,
	log,
	packPackage,
	type N8nLine,
} from '../../dev/n8n/harness';
import {
	assertLoadsAsUsersDo,
	devN8nFolder,
	installedPackageFolder,
	n8nWorkflowCopiesReached,
} from '../../dev/start/layout';
import { expectPackageWords, runChatFailures, seenTable } from './chatFailureCases';
import { describeEachLine } from './fixtures';

describeEachLine(['2.x'])("n8n $line ($version) in npm start's layout", (line: N8nLine) => {
	const dataHome = mkdtempSync(join(tmpdir(), 'agent-platform-data-home-'));
	// npm start's decision, with the user's data folder here instead of the real one
	const folder = devN8nFolder(line, { XDG_DATA_HOME: dataHome });
	let emu: PlatformEmulator | undefined;
	let n8n: N8nInstance | undefined;
	let started = 0;

	beforeAll(async () => {
		started = Date.now();
		await ensureN8n(line);
		const tarball = await packPackage();
		emu = await startEmulator({ quiet: true, ...DEV_PLATFORM, executionSeconds: 1 });
		n8n = await N8nInstance.create(line, { folder });
		await n8n.installPackage(tarball);
		assertLoadsAsUsersDo(n8n.userFolder, line);
		await n8n.start({ timeoutMs: 180_000 });
		await n8n.setupOwnerAndApiKey(DEV_SIGN_IN);
	});
	afterAll(async () => {
		await n8n?.stop();
		await emu?.stop();
		rmSync(dataHome, { recursive: true, force: true });
		log(`n8n ${line.version}: start-layout took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	test("n8n's folder is outside the checkout, in the user's data folder, and the package gets n8n's own n8n-workflow", () => {
		expect(folder).toBe(join(dataHome, PACKAGE_NAME, `n8n-dev-${line.line}`));
		expect(relative(REPO_ROOT, folder).startsWith('..')).toBe(true);
		expect(n8nWorkflowCopiesReached(installedPackageFolder(n8n!.userFolder), line)).toEqual([]);
	});

	test('a folder inside the checkout is refused, naming the copy the package would get', () => {
		const inside = join(REPO_ROOT, '.tmp', `layout-probe-${process.pid}`);
		mkdirSync(installedPackageFolder(join(inside, 'user')), { recursive: true });
		try {
			expect(n8nWorkflowCopiesReached(installedPackageFolder(join(inside, 'user')), line)).toEqual([
				join(REPO_ROOT, 'node_modules', 'n8n-workflow'),
			]);
			expect(() => assertLoadsAsUsersDo(join(inside, 'user'), line)).toThrow(
				/another n8n-workflow than its own .*Original error: NodeApiError/,
			);
		} finally {
			rmSync(inside, { recursive: true, force: true });
		}
	});

	test("a wrong key and a missing agent: the package's words in the chat and in the editor's error", async () => {
		const seen = await runChatFailures(n8n!, emu!, DEV_PLATFORM, 'startLayout');
		log(
			`n8n ${line.version}, npm start's layout: what the chat and the editor showed\n${seenTable(seen)}`,
		);
		expectPackageWords(seen);
	});
});
