/** What the editor's test files (editor, editor-examples and the held lookups, editor-chat*) share: their set-up, constants, the red-mark reader and the form steps they repeat. */
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { startEmulator, type EmulatorOptions, type PlatformEmulator } from '../../dev/emulator';
import { openEditor, restSettled, type EditorBrowser } from '../../dev/n8n/browser';
import {
	DEFAULT_OWNER,
	EXAMPLE_CREDENTIALS,
	agentPlatformCredential,
	log,
	secondsSince,
	sleep,
	type CredentialFixture,
	type N8nInstance,
	type N8nLine,
	type PlatformEndpoint,
	type WorkflowFixture,
} from '../../dev/n8n/harness';
import { acquireLock } from '../../dev/n8n/lock';
import { loadWorkflow } from './fixtures';
import { n8nOfLine, type LineN8n } from './lineN8n';

export const API_KEY = 'e2e-editor-key-5d1a';
export const WORKSPACE_ID = '42';
export const CHAT_AGENT = 'Chat Assistant';
export const TEXT_AGENT = 'Text Summarizer';
export const IMAGE_AGENT = 'Image Creator';
/** A copy of the chat example's first Execute node, switched between agents by the test. */
export const SWITCH_WORKFLOW = 'editorSwitch0001';
export const SWITCH_NODE = 'Ask the agent';
/** What n8n's editor says when an opened workflow was changed without the user's doing. */
export const CHANGED_WORDS = /parameters have changed|are outdated|Refresh to see/i;
export const RAW_CODE = /\b(ECONNREFUSED|ENOTFOUND|ERR_INVALID_URL|ERR_[A-Z_]+)\b/;
/** A workflow saved before Agent File's Get Many was renamed (operation `list`, node version 1). */
export const SAVED_BEFORE_RENAME = loadWorkflow('agent-file-list-v1', {
	CREDENTIAL_ID: EXAMPLE_CREDENTIALS.agentPlatform.id,
	CREDENTIAL_NAME: EXAMPLE_CREDENTIALS.agentPlatform.name,
	AGENT_ID: '1',
});

/**
 * The red marks n8n puts on a parameter it finds wrong. With `unansweredAllowed`, the marks on
 * required answers not given yet do not count: those are right (the run would fail without them).
 */
export async function redFields(panel: Locator, unansweredAllowed = false): Promise<string[]> {
	const all = await panel.locator('[data-test-id="parameter-issues"]').count();
	const answers = await panel
		.locator('[data-test-id="resource-mapper-container"] [data-test-id="parameter-issues"]')
		.count();
	const issues = unansweredAllowed ? all - answers : all;
	const unsupported = await panel.getByText(/is not supported/).count();
	// the warning triangle of answer fields that no longer match the agent's ("outdated")
	const stale = await panel.locator('[class*="staleDataWarning"]').count();
	const found: string[] = [];
	if (issues) found.push(`${issues} parameter(s) marked with issues`);
	if (stale) found.push('answers marked outdated');
	if (unsupported) found.push(`${unsupported} "is not supported" message(s)`);
	return found;
}

/** The workflow as n8n stores it, read by the signed-in page (n8n checks the browser-id header). */
export async function storedWorkflow(
	page: Page,
	id: string,
): Promise<{ versionId: string; nodes: unknown[] }> {
	return await page.evaluate(async (workflowId) => {
		// runs in the page (no DOM types in this project)
		const storage = (
			globalThis as unknown as { localStorage: { getItem(key: string): string | null } }
		).localStorage;
		const response = await fetch(`/rest/workflows/${workflowId}`, {
			headers: { 'browser-id': storage.getItem('n8n-browserId') ?? '' },
		});
		return ((await response.json()) as { data: { versionId: string; nodes: unknown[] } }).data;
	}, id);
}

/** Opens the node panel (trigger panel on an empty canvas) and searches it. */
export async function searchPanel(page: Page, text: string): Promise<Locator> {
	const search = page.locator('[data-test-id="node-creator-search-bar"]');
	await search.waitFor({ timeout: 15_000 });
	await search.fill(text);
	const entry = page
		.locator('[data-test-id="item-iterator-item"]')
		.filter({ hasText: 'Agent Platform' });
	await entry.first().waitFor({ timeout: 15_000 });
	return entry;
}

/** "What happens next?" after the canvas's first node: Agent Platform → Execute; its panel. */
export async function addExecuteAfter(page: Page): Promise<Locator> {
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
	const entry = await searchPanel(page, 'Agent Platform');
	await entry.first().click();
	await page
		.locator('[data-test-id="item-iterator-item"]')
		.filter({ hasText: 'Chat with or run an agent' })
		.first()
		.click();
	const panel = page.locator('[data-test-id="ndv"]').first();
	await panel.waitFor({ timeout: 15_000 });
	return panel;
}

/** Answers the text agent's two required questions on Execute's form: Topic, and Tone `tone`. */
export async function answerTextAgent(page: Page, ndv: Locator, tone: string): Promise<void> {
	const answers = ndv.locator('[data-test-id="resource-mapper-container"]');
	const field = (id: string) =>
		answers.locator(`[data-test-id$="${id}"][data-test-id^="parameter-input"]`).first();
	await field('topic').locator('input, textarea').first().fill('Sea otters');
	await field('tone').click();
	await page.locator('.el-select-dropdown__item:visible').filter({ hasText: tone }).first().click();
	await restSettled(page);
}

/**
 * Picks an agent from the Agent list. n8n sets the panel's credential a moment after it opens, and a
 * list opened before that shows no agents: as a person would, the title is then typed into the
 * list's search (which loads it again), or the list opened once more.
 */
export async function pickAgent(page: Page, ndv: Locator, title: string): Promise<void> {
	const list = ndv.locator(
		'[data-test-id="resource-locator-agentId"] [data-test-id="rlc-input-container"]',
	);
	const item = page.locator('[data-test-id="rlc-item"]').filter({ hasText: title }).first();
	await list.click();
	for (let attempt = 1; ; attempt++) {
		try {
			await item.waitFor({ timeout: 10_000 });
			break;
		} catch (error) {
			if (attempt === 3) throw error;
		}
		const search = page
			.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input')
			.first();
		if (await search.isVisible()) await search.fill(title);
		else await list.click();
	}
	await item.click();
	// the agent's own choices load after the pick
	await restSettled(page);
}

/** Picks an option of a dropdown parameter by its position in the list. */
export async function chooseOption(
	page: Page,
	ndv: Locator,
	parameter: string,
	position: number,
): Promise<void> {
	const input = ndv.locator(`[data-test-id="parameter-input-${parameter}"]`);
	await input.scrollIntoViewIfNeeded();
	await input.click();
	await page.locator('.el-select-dropdown__item:visible').nth(position).click();
}

/**
 * Each question's description where a person sees it while answering: under its option in Answer
 * Name or ID (n8n's answer fields show none), and under each option of a select answer.
 */
export async function seeDescriptions(page: Page, ndv: Locator): Promise<void> {
	const guide = ndv.locator('[data-test-id="parameter-input-answerDescriptions"]');
	await guide.scrollIntoViewIfNeeded();
	expect(await guide.locator('input').first().getAttribute('placeholder')).toMatch(
		/what each answer below asks/,
	);
	await guide.click();
	const option = (words: string) =>
		page.locator('.el-select-dropdown__item:visible').filter({ hasText: words }).first();
	for (const words of ['What the image should show', 'Things the image must not show'])
		await option(words).waitFor({ timeout: 10_000 });
	expect(await option('What the image should show').innerText()).toMatch(
		/Prompt\s+What the image should show\. Required\./,
	);
	// closed again, nothing picked (the select keeps Escape from the panel)
	await page.keyboard.press('Escape');
	expect(await guide.locator('input').first().inputValue()).toBe('');
	const size = ndv.locator('[data-test-id$="size"][data-test-id^="parameter-input"]').first();
	await size.click();
	await option('512x512').waitFor({ timeout: 10_000 });
	expect(await option('512x512').innerText()).toMatch(/512x512\s+Image size/);
	await page.keyboard.press('Escape');
	// closed before the next field is filled
	await option('512x512').waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * A browser with the owner signed in on a file's n8n, with the owner's session made when the owner
 * was set up (n8n allows five logins a minute): no sign-in page, whose load costs Chromium about
 * 10 s of CPU. Through the sign-in page where there is no session.
 */
export async function openEditorOn(fixture: LineN8n): Promise<EditorBrowser> {
	const { baseUrl, cookie } = fixture.n8n;
	return await openEditor(baseUrl, cookie ? { cookie } : DEFAULT_OWNER, () =>
		fixture.n8n.logText(),
	);
}

/** One editor file's set-up on a line: its emulator, the line's n8n with its workflows, a browser. */
export interface EditorOfLine {
	emu: PlatformEmulator;
	fixture: LineN8n;
	/** The id of this file's copy of a workflow or credential fixture (fixture.id). */
	id(fixtureId: string): string;
	n8n: N8nInstance;
	browser: EditorBrowser;
	page: Page;
	close(): Promise<void>;
}

/**
 * An emulator (its API key and workspace: API_KEY, WORKSPACE_ID), the line's n8n with the
 * credentials (by default the examples' two) pointed at it and `workflows` (their copies:
 * `fixture.id()`), and the owner signed in in a new browser.
 */
export async function editorOfLine(
	line: N8nLine,
	tag: string,
	workflows: WorkflowFixture[] | ((emu: PlatformEmulator) => WorkflowFixture[]),
	opts: {
		fresh?: boolean;
		/** The emulator's options beside its key and workspace (default: timeScale 10). */
		emulator?: EmulatorOptions;
		credentials?: (platform: PlatformEndpoint) => CredentialFixture[];
		/**
		 * The file's editor registers test webhooks (the chat, "Listen for test event"): on a shared
		 * n8n it waits until no other file's editor does. n8n 2.41.1 keeps every test webhook in one
		 * in-memory cache entry, deep-cloned on each write, and while it removes one it first hangs
		 * a run's context (the whole server's objects) on the entry; another file's write then
		 * overflows the stack ("Maximum call stack size exceeded", docs/development.md).
		 */
		testWebhooks?: boolean;
	} = {},
): Promise<EditorOfLine> {
	const started = Date.now();
	let emu: PlatformEmulator | undefined;
	let fixture: LineN8n | undefined;
	let browser: EditorBrowser | undefined;
	// the lock is the shared n8n's: an n8n of the file's own has no other editor
	const holdsTestWebhooks = opts.testWebhooks === true && !opts.fresh;
	let release = () => {};
	try {
		emu = await startEmulator({
			...(opts.emulator ?? { timeScale: 10 }),
			apiKey: API_KEY,
			workspaceId: WORKSPACE_ID,
			quiet: true,
		});
		const platform = { url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID };
		fixture = await n8nOfLine(line, {
			tag,
			credentials: opts.credentials?.(platform) ?? [
				agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
			],
			workflows: typeof workflows === 'function' ? workflows(emu) : workflows,
			fresh: opts.fresh,
		});
		if (holdsTestWebhooks) {
			const waitStarted = Date.now();
			release = await acquireLock(join(fixture.n8n.folder, 'test-webhooks.lock'), {
				waitMs: 15 * 60_000,
			});
			log(`n8n ${line.version}: ${tag} waited ${secondsSince(waitStarted)} for the test webhooks`);
		}
		browser = await openEditorOn(fixture);
		log(`n8n ${line.version}: ${tag} ready in ${secondsSince(started)}`);
		const [running, opened, browsing] = [emu, fixture, browser];
		return {
			emu,
			fixture,
			id: fixture.id,
			n8n: fixture.n8n,
			browser,
			page: browser.page,
			async close() {
				await browsing.close();
				// n8n removes a run's or a stopped listener's test webhook once the run is started or
				// the listening stopped, without waiting: a moment for that before the next file's editor
				if (holdsTestWebhooks) await sleep(3000);
				release();
				await opened.release();
				await running.stop();
				log(`n8n ${line.version}: ${tag} took ${secondsSince(started)}`);
			},
		};
	} catch (error) {
		await browser?.close();
		release();
		await fixture?.release();
		await emu?.stop();
		throw error;
	}
}

/**
 * editorOfLine as the set-up (beforeAll) and end (afterAll) of the enclosing describe. What it
 * returns reads the set-up's (emu, n8n, page, id...) once it is made: in the tests and hooks.
 */
export function useEditorOfLine(
	line: N8nLine,
	tag: string,
	workflows: Parameters<typeof editorOfLine>[2],
	opts: Parameters<typeof editorOfLine>[3] = {},
): EditorOfLine {
	let editor: EditorOfLine | undefined;
	beforeAll(async () => {
		editor = await editorOfLine(line, tag, workflows, opts);
	});
	afterAll(async () => {
		await editor?.close();
	});
	return new Proxy({} as EditorOfLine, {
		get(_, name) {
			if (!editor) throw new Error(`${tag}: the editor is used before its set-up (beforeAll) ran`);
			return Reflect.get(editor, name) as unknown;
		},
	});
}
