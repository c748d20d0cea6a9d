/**
 * "The n8n of this line with these credentials and workflows": the end-to-end run's shared n8n of
 * the line (test/setup/e2eLines.ts), running and signed up, with this file's credentials and
 * workflows imported into it; or, when the run has none (E2E_SHARED_N8N=0), one of the file's own,
 * started the same way. Files that need a special n8n (other environment, a restart, queue mode)
 * use N8nInstance or dev/n8n/queueMode.ts instead.
 *
 * Several files use one n8n at once, so each file's copies get ids of their own: `id()` turns a
 * fixture's id (a workflow's, a credential's) into its copy's, made from the file's `tag` or given
 * by n8n. Nodes' credential references and webhook ids follow; a Webhook node's `path` stays as
 * written, so an active workflow's path must be the file's own: activate() claims it in the shared
 * n8n's register (dev/n8n/webhookPaths.ts) and fails, naming both files, when another file's
 * workflow has it. The copies are made through n8n's API (one request each) once n8n runs.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';

import { startEmulator, type EmulatorOptions, type PlatformEmulator } from '../../dev/emulator';

import {
	DEFAULT_OWNER,
	N8nInstance,
	REPO_ROOT,
	log,
	type PlatformEndpoint,
	type CredentialFixture,
	type N8nLine,
	type SharedN8n,
	type WorkflowFixture,
} from '../../dev/n8n/harness';
import { claimWebhookPaths } from '../../dev/n8n/webhookPaths';
import { SHARED_N8N_FILES, usesSharedN8n } from '../setup/e2eLines';

export interface LineN8nOptions {
	/** This file's own word (its name): the ids of its copies are made from it. */
	tag: string;
	credentials?: CredentialFixture[];
	/** The workflows, or a function making them given the file's folder for Read/Write Files. */
	workflows?:
		WorkflowFixture[] | ((files: string) => WorkflowFixture[] | Promise<WorkflowFixture[]>);
	/** An n8n of the file's own even when the run shares one: what a new user's n8n holds only. */
	fresh?: boolean;
}

export interface LineN8n {
	n8n: N8nInstance;
	/** True for the run's shared n8n, false for one of the file's own. */
	shared: boolean;
	/** The id of this file's copy of a workflow or credential fixture. */
	id(fixtureId: string): string;
	/** This file's folder where the n8n's Read/Write Files may read and write (removed by release()). */
	files: string;
	/** The webhook id of this file's copy of a node (a Chat Trigger's URL is /webhook/<it>/chat). */
	webhookId(fixtureWebhookId: string): string;
	/**
	 * Activates this file's copy of a workflow, its Webhook paths claimed for this file on a shared
	 * n8n (a clash with another file's fails here); release() deactivates it.
	 */
	activate(fixtureId: string): Promise<void>;
	/** Deactivates what activate() activated; stops and removes an n8n of the file's own. */
	release(): Promise<void>;
}

/** The running n8n of a line that test/setup/e2eLines.ts handed to this worker, if any. */
function sharedPlaces(line: N8nLine): SharedN8n | undefined {
	const all = process.env.E2E_LINE_N8N;
	if (!all) return undefined;
	return (JSON.parse(all) as Record<string, SharedN8n>)[line.line];
}

/** 16 hexadecimal characters from the tag and the fixture's id (the ids' length in n8n). */
function copyId(tag: string, id: string): string {
	return createHash('sha256').update(`${tag}\n${id}`).digest('hex').slice(0, 16);
}

/** A webhook id in n8n's UUID shape, made from the tag and the fixture's webhook id. */
function copyWebhookId(tag: string, id: string): string {
	const hex = createHash('sha256').update(`${tag}\n${id}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A workflow with its id and webhook ids made the file's own, and its nodes' credential
 * references the ids n8n gave this file's credentials (`idOf`).
 */
function workflowCopy(
	tag: string,
	workflow: WorkflowFixture,
	idOf: (fixtureId: string) => string,
): WorkflowFixture {
	return {
		...workflow,
		id: copyId(tag, workflow.id),
		nodes: workflow.nodes.map((node) => {
			const copy = { ...node };
			if (typeof node.webhookId === 'string') copy.webhookId = copyWebhookId(tag, node.webhookId);
			const credentials = node.credentials as
				Record<string, { id: string; name: string }> | undefined;
			if (credentials)
				copy.credentials = Object.fromEntries(
					Object.entries(credentials).map(([type, ref]) => [type, { ...ref, id: idOf(ref.id) }]),
				);
			return copy;
		}),
	};
}

/** Fails in a test file that is not in SHARED_N8N_FILES: the run would not start the shared n8n for it. */
function checkListed(): void {
	const { testPath } = expect.getState();
	if (testPath && !usesSharedN8n(testPath, REPO_ROOT))
		throw new Error(
			`${relative(REPO_ROOT, testPath)} uses the line's shared n8n (n8nOfLine) but is not among SHARED_N8N_FILES in test/setup/e2eLines.ts (${SHARED_N8N_FILES.length} files): add it there, or pass fresh: true for an n8n of its own`,
		);
}

export async function n8nOfLine(line: N8nLine, opts: LineN8nOptions): Promise<LineN8n> {
	if (!opts.fresh) checkListed();
	const places = opts.fresh ? undefined : sharedPlaces(line);
	const n8n = places
		? N8nInstance.attach(line, places)
		: await N8nInstance.withPackage(line, { ownFiles: true });
	const files = join(n8n.filesFolder, opts.tag);
	// the ids n8n gave this file's copies (1.x gives workflows ids of its own, both credentials)
	const given = new Map<string, string>();
	const id = (fixtureId: string) => given.get(fixtureId) ?? copyId(opts.tag, fixtureId);
	const active = new Set<string>();
	let workflows: WorkflowFixture[] = [];
	try {
		// attached, n8n is signed in with the run's session (n8n allows five logins a minute)
		if (!places) {
			await n8n.start({ timeoutMs: 180_000 });
			await n8n.setupOwnerAndApiKey(DEFAULT_OWNER);
		}
		// through n8n's API, not its import commands: each of those starts n8n's CLI for seconds
		for (const credential of opts.credentials ?? [])
			given.set(credential.id, await n8n.createCredential(credential));
		await mkdir(files, { recursive: true });
		workflows =
			typeof opts.workflows === 'function' ? await opts.workflows(files) : (opts.workflows ?? []);
		for (const workflow of workflows)
			given.set(workflow.id, await n8n.createWorkflow(workflowCopy(opts.tag, workflow, id)));
	} catch (error) {
		await n8n.dispose();
		throw error;
	}
	return {
		n8n,
		shared: places !== undefined,
		id,
		files,
		webhookId: (fixtureWebhookId) => copyWebhookId(opts.tag, fixtureWebhookId),
		async activate(fixtureId) {
			const workflow = workflows.find((w) => w.id === fixtureId);
			if (places && workflow) await claimWebhookPaths(places.folder, opts.tag, [workflow]);
			await n8n.activate(id(fixtureId));
			active.add(id(fixtureId));
		},
		async release() {
			for (const workflowId of active) await n8n.deactivate(workflowId).catch(() => undefined);
			await rm(files, { recursive: true, force: true });
			await n8n.dispose();
		},
	};
}

/** What useLineN8n hands the file once its set-up is done. */
export interface LineSetUp {
	emu: PlatformEmulator;
	/** The emulator as a credential sees it: its URL, API key and workspace. */
	platform: PlatformEndpoint;
	fixture: LineN8n;
	n8n: N8nInstance;
}

export interface LineSetUpOptions {
	/** This file's own word, as for n8nOfLine; also the set-up's name in the log. */
	tag: string;
	/** The file's emulator: its API key and workspace, and any other option (quiet by default). */
	emulator: EmulatorOptions & { apiKey: string; workspaceId: string };
	/** The file's credentials for that emulator. */
	credentials: (platform: PlatformEndpoint) => CredentialFixture[];
	/**
	 * The file's workflows, made once the emulator runs (its agents' ids, seeded data…); `files`
	 * is the file's folder where n8n's Read/Write Files may read and write.
	 */
	workflows: (
		emu: PlatformEmulator,
		files: string,
	) => WorkflowFixture[] | Promise<WorkflowFixture[]>;
}

/**
 * The set-up most end-to-end files share, as the describe's beforeAll and afterAll: an emulator of
 * the file's own, and the n8n of the line with the file's credentials and workflows for it
 * (n8nOfLine); `ready` receives them. The log says how long the set-up and the suite took.
 */
export function useLineN8n(
	line: N8nLine,
	opts: LineSetUpOptions,
	ready: (setUp: LineSetUp) => unknown,
): void {
	let started = 0;
	const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
	let emu: PlatformEmulator | undefined;
	let fixture: LineN8n | undefined;
	beforeAll(async () => {
		started = Date.now();
		const running = await startEmulator({ quiet: true, ...opts.emulator });
		emu = running;
		const { apiKey, workspaceId } = opts.emulator;
		const platform = { url: running.url, apiKey, workspaceId };
		fixture = await n8nOfLine(line, {
			tag: opts.tag,
			credentials: opts.credentials(platform),
			workflows: (files) => opts.workflows(running, files),
		});
		log(`n8n ${line.version}: ${opts.tag} set up in ${seconds()} s`);
		await ready({ emu: running, platform, fixture, n8n: fixture.n8n });
	});
	afterAll(async () => {
		await fixture?.release();
		await emu?.stop();
		log(`n8n ${line.version}: ${opts.tag} suite took ${seconds()} s`);
	});
}
