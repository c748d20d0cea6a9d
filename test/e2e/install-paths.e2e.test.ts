/**
 * The README's install paths ("Installing in n8n"), as written, in n8n 2.41.1, each with the
 * package alone and beside a second community package that declares `n8n-workflow` as a required
 * peer (neighbourPackage.ts): n8n loads the nodes, and a failure in the chat reads in the package's
 * words (chatFailureCases.ts), never n8n's "Original error: NodeApiError".
 *
 * - n8n's community package installer (dev/n8n/communityInstall.ts does what it does): the package
 *   and the neighbour, each installed by it. The package alone through the same installer is
 *   start-layout.e2e.test.ts (npm start installs that way).
 * - By hand: the README's command (`npm install --omit=peer <package>` in the nodes folder: the
 *   package alone reaches no copy of `n8n-workflow` but n8n's), then the neighbour installed there
 *   by a plain `npm install`, which puts a copy beside them (the README's warning: the chat
 *   model's errors then read "Original error"), then the README's remedy (`npm install
 *   --omit=peer` there again), after which n8n runs the failures.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/install-paths.e2e.test.ts --selectProjects e2e
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import {
	DEFAULT_OWNER,
	DEV_PLATFORM,
	N8nInstance,
	NODE_TYPES,
	REPO_ROOT,
	ensureN8n,
	log,
	packPackage,
	type N8nLine,
} from '../../dev/n8n/harness';
import { installByHand, installCommunityPackage } from '../../dev/n8n/communityInstall';
import { installedPackageFolder, n8nWorkflowCopiesReached } from '../../dev/start/layout';
import { expectPackageWords, runChatFailures, seenTable } from './chatFailureCases';
import { describeEachLine } from './fixtures';
import { NEIGHBOUR, packNeighbour } from './neighbourPackage';

/** The README's words, its line breaks read as the spaces they are. */
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
/** The README's hand install, as printed there (the package's name replaced by its tarball here). */
const HAND_INSTALL = 'cd ~/.n8n/nodes && npm install --omit=peer n8n-nodes-agent-platform';
const REMEDY = 'npm install --omit=peer';

/** The node types n8n loaded: the list it writes for its editor at start (`/types/nodes.json`). */
function loadedTypes(n8n: N8nInstance): string[] {
	const file = join(n8n.userFolder, '.cache', 'n8n', 'public', 'types', 'nodes.json');
	return (JSON.parse(readFileSync(file, 'utf8')) as Array<{ name: string }>).map((t) => t.name);
}

describeEachLine(['2.x'])("n8n $line ($version): the README's install paths", (line: N8nLine) => {
	let emu: PlatformEmulator;
	let tarball: string;
	let neighbour: string;
	let started = 0;
	const seen: string[] = [];

	beforeAll(async () => {
		started = Date.now();
		await ensureN8n(line);
		[tarball, neighbour] = await Promise.all([packPackage(), packNeighbour()]);
		emu = await startEmulator({ quiet: true, ...DEV_PLATFORM, executionSeconds: 1 });
	});
	afterAll(async () => {
		await emu?.stop();
		// the neighbour's tarball, in a folder of its own (packNeighbour)
		if (neighbour) await rm(dirname(neighbour), { recursive: true, force: true });
		log(`n8n ${line.version}: install paths, what the chats showed\n${seen.join('\n')}`);
		log(`n8n ${line.version}: install-paths took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	/** Starts `n8n` (owner set up), runs the chat failures, stops it; returns what they showed. */
	async function chatFailuresIn(n8n: N8nInstance, tag: string) {
		await n8n.start({ timeoutMs: 180_000 });
		try {
			return await chatFailuresWhileUp(n8n, tag);
		} catch (error) {
			throw new Error(`${(error as Error).message}\n${n8n.logTail(40)}`);
		} finally {
			await n8n.stop();
		}
	}

	async function chatFailuresWhileUp(n8n: N8nInstance, tag: string) {
		await n8n.setupOwnerAndApiKey(DEFAULT_OWNER);
		const types = loadedTypes(n8n);
		const result = await runChatFailures(n8n, emu, DEV_PLATFORM, tag);
		seen.push(`${tag}:\n${seenTable(result)}`);
		return { types, result };
	}

	test("n8n's installer: the package beside a neighbour that requires n8n-workflow", async () => {
		const n8n = await N8nInstance.create(line);
		try {
			await installCommunityPackage(n8n.userFolder, tarball, n8n.env());
			await installCommunityPackage(n8n.userFolder, neighbour, n8n.env());
			expect(n8nWorkflowCopiesReached(installedPackageFolder(n8n.userFolder), line)).toEqual([]);
			const { types, result } = await chatFailuresIn(n8n, 'installerBeside');
			expect(types).toEqual(expect.arrayContaining([NODE_TYPES.action, NEIGHBOUR.nodeType]));
			expectPackageWords(result);
		} finally {
			await n8n.dispose();
		}
	});

	test('by hand: alone (no copy reached), then beside a neighbour installed plainly (the copy it brings), then the remedy', async () => {
		expect(README).toContain(HAND_INSTALL);
		expect(README).toContain(`run \`${REMEDY}\` in that folder again`);
		const n8n = await N8nInstance.create(line);
		const copies = () => n8nWorkflowCopiesReached(installedPackageFolder(n8n.userFolder), line);
		try {
			// the README's command, the package's name standing for its tarball
			// (alone it reaches no copy: n8n's own, as after the remedy below, where n8n runs it)
			await installByHand(n8n.userFolder, ['--omit=peer', tarball], n8n.env());
			expect(copies()).toEqual([]);

			// the neighbour by a plain `npm install` (its peer's install scripts skipped: they build
			// native modules for minutes, and the copy lands all the same): the copy the README warns
			// of, which n8n's AI Agent shows the chat model's errors through as "Original error:
			// NodeApiError" (seen in n8n 2.41.1; not started again here, to keep the file short)
			await installByHand(n8n.userFolder, ['--ignore-scripts', neighbour], n8n.env());
			const nodesModules = join(n8n.userFolder, '.n8n', 'nodes', 'node_modules');
			expect(copies()).toEqual([join(nodesModules, 'n8n-workflow')]);

			// the README's remedy: the copy goes, every package gets n8n's own
			await installByHand(n8n.userFolder, ['--omit=peer'], n8n.env());
			expect(copies()).toEqual([]);
			const beside = await chatFailuresIn(n8n, 'handBeside');
			expect(beside.types).toEqual(expect.arrayContaining([NODE_TYPES.action, NEIGHBOUR.nodeType]));
			expectPackageWords(beside.result);
		} finally {
			await n8n.dispose();
		}
	});
});
