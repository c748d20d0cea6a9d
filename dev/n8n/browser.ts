/**
 * n8n's editor in a real browser: Debian's Chromium (`apt-get install chromium`), headless, driven
 * by playwright-core (no browser download: executablePath). Used by the editor e2e suite and by
 * `npm run screenshots`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { chromium } from 'playwright-core';

import { BROWSER_ID } from './client';
import { isRestCall, pageMark, pageSince, watchPageErrors, watchRestCalls } from './pageErrors';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Flags that keep Chromium quiet and isolated (no GPU, no background traffic, no first-run UI). */
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * How long an editor page may take to be ready after it is loaded: its megabytes of script cost
 * Chromium 10 to 20 s of CPU on an idle 2-core machine (measured), and a page of n8n 1.x took over
 * 30 s beside a busy neighbour. Waits that follow a load use it; a step within a page keeps its own.
 */
export const EDITOR_LOAD_MS = 120_000;

/** Loads an editor page and waits until `ready` (a selector) shows on it. */
export async function loadEditorPage(page: Page, url: string, ready: string): Promise<void> {
	await page.goto(url);
	await page.locator(ready).first().waitFor({ timeout: EDITOR_LOAD_MS });
}

export interface EditorBrowser {
	context: BrowserContext;
	page: Page;
	close(): Promise<void>;
}

/**
 * One Chromium with a fresh, empty profile (removed by close()). `serverLog` reads the log of the
 * n8n the page talks to: a failed step quotes what n8n logged at an answer of 500 and over.
 */
export async function launchBrowser(serverLog?: () => string): Promise<EditorBrowser> {
	if (!existsSync(CHROMIUM))
		throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM)`);
	const profile = mkdtempSync(join(tmpdir(), 'agent-platform-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
		deviceScaleFactor: 1,
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	const page = context.pages()[0] ?? (await context.newPage());
	// the editor's first load (megabytes of script) takes far longer than playwright's 30 s on a
	// machine whose cores are shared with other runs
	page.setDefaultNavigationTimeout(EDITOR_LOAD_MS);
	watchRestRequests(page);
	// a stack overflow's trace reaches its entry only past V8's default of 10 frames
	await context.addInitScript('Error.stackTraceLimit = Infinity;');
	watchPageErrors(page, serverLog);
	watchRestCalls(page);
	return {
		context,
		page,
		async close() {
			await context.close().catch(() => undefined);
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

export async function signIn(
	page: Page,
	base: string,
	owner: { email: string; password: string },
): Promise<void> {
	// n8n 2.x gives the field an id, 1.x a name
	const email = '#emailOrLdapLoginId, input[name="emailOrLdapLoginId"]';
	await loadEditorPage(page, `${base}/signin`, email);
	await page.locator(email).first().fill(owner.email);
	await page.locator('input[type="password"]').fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/**
 * The editor ready for a person: n8n started, its owner set up, and that owner signed in in a new
 * browser (close it when done).
 */
export async function startEditor(
	n8n: {
		baseUrl: string;
		start(opts?: { timeoutMs?: number }): Promise<void>;
		rest(method: string, path: string, body?: unknown): Promise<unknown>;
	},
	owner: { email: string; password: string },
): Promise<EditorBrowser> {
	await n8n.start({ timeoutMs: 180_000 });
	await n8n.rest('POST', '/owner/setup', owner);
	return await openEditor(n8n.baseUrl, owner);
}

/**
 * A new browser with the owner of a running n8n signed in (close it when done): through the sign-in
 * page with `owner`'s email and password, or, given an `n8n-auth=…` session cookie (one that
 * N8nClient made, bound to its BROWSER_ID), with that session: no sign-in page to load, no login.
 */
export async function openEditor(
	baseUrl: string,
	owner: { email: string; password: string } | { cookie: string },
	serverLog?: () => string,
): Promise<EditorBrowser> {
	const browser = await launchBrowser(serverLog);
	try {
		if ('cookie' in owner) await useSession(browser.context, baseUrl, owner.cookie);
		else await signIn(browser.page, baseUrl, owner);
	} catch (error) {
		await browser.close();
		throw error;
	}
	return browser;
}

/** The session cookie set for n8n's address, and the browser id it is bound to where n8n's editor reads it. */
async function useSession(context: BrowserContext, baseUrl: string, cookie: string): Promise<void> {
	const [name, ...value] = cookie.split('=');
	await context.addCookies([{ name, value: value.join('='), url: baseUrl }]);
	await context.addInitScript((browserId) => {
		// runs in the page (no DOM types in this project)
		const storage = (
			globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }
		).localStorage;
		storage.setItem('n8n-browserId', browserId);
	}, BROWSER_ID);
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** The page's requests to n8n's REST API still unanswered, and when that last changed. */
const restRequests = new WeakMap<Page, { pending: Set<Request>; changedAt: number }>();

function watchRestRequests(page: Page): { pending: Set<Request>; changedAt: number } {
	let traffic = restRequests.get(page);
	if (traffic) return traffic;
	const watched = { pending: new Set<Request>(), changedAt: Date.now() };
	const done = (request: Request) => {
		if (watched.pending.delete(request)) watched.changedAt = Date.now();
	};
	page.on('request', (request) => {
		if (!isRestCall(request)) return;
		watched.pending.add(request);
		watched.changedAt = Date.now();
	});
	page.on('requestfinished', done);
	page.on('requestfailed', done);
	restRequests.set(page, watched);
	traffic = watched;
	return traffic;
}

/**
 * Waits until the editor has had no request to n8n's REST API unanswered for `quietMs`: what a
 * panel asks for when it opens (dynamic options, answer fields, lookups) has come and is shown.
 */
export async function restSettled(
	page: Page,
	{ quietMs = 500, timeoutMs = 30_000 }: { quietMs?: number; timeoutMs?: number } = {},
): Promise<void> {
	const traffic = watchRestRequests(page);
	const since = Date.now();
	traffic.changedAt = Math.max(traffic.changedAt, since);
	while (traffic.pending.size > 0 || Date.now() - traffic.changedAt < quietMs) {
		if (Date.now() - since > timeoutMs) {
			const urls = [...traffic.pending].map((request) => request.url());
			throw new Error(`n8n's editor still waits for ${urls.join(', ')} after ${timeoutMs} ms`);
		}
		await page.waitForTimeout(50);
	}
}

/**
 * Waits until the editor holds no unsaved change of the open workflow (n8n's `stateIsDirty`, in
 * the store that has it): n8n 2.x saves a change on its own 1.5 s after it (then the state is
 * clean again and the stored workflow has a new versionId). False when a change is still unsaved
 * after `timeoutMs` (n8n 1.x does not save on its own).
 */
export async function editorClean(page: Page, timeoutMs = 10_000): Promise<boolean> {
	try {
		await page.waitForFunction(
			() => {
				// runs in the page (no DOM types in this project)
				const app = (
					globalThis as unknown as {
						document: { querySelector(selector: string): unknown };
					}
				).document.querySelector('#app') as {
					__vue_app__?: {
						config: { globalProperties: { $pinia?: { _s: Map<string, Record<string, unknown>> } } };
					};
				} | null;
				const stores = app?.__vue_app__?.config.globalProperties.$pinia?._s;
				if (!stores) return false;
				const holders = [...stores.values()].filter((store) => 'stateIsDirty' in store);
				return holders.length > 0 && holders.every((store) => store.stateIsDirty === false);
			},
			undefined,
			{ timeout: timeoutMs, polling: 100 },
		);
		return true;
	} catch {
		return false;
	}
}

/** Closes the open node panel (Escape) and waits until it is gone. */
export async function closeNode(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'hidden', timeout: 15_000 });
}

/**
 * Opens a workflow and waits for one of its nodes on the canvas. When the page shows another
 * workflow of the same n8n 2.x with nothing unsaved, n8n's own router opens it, as a click in the
 * workflow list does: no new page load (which takes seconds). The same workflow again, n8n 1.x
 * (its editor keeps the workflow it shows when only the route changes), or any other page: the
 * page loads it anew (that also resets what the page showed).
 */
export async function openWorkflow(
	page: Page,
	base: string,
	workflowId: string,
	nodeName: string,
): Promise<void> {
	const path = `/workflow/${workflowId}`;
	const routed =
		page.url().startsWith(`${base}/workflow/`) &&
		(await page.evaluate((target) => {
			// runs in the page (no DOM types in this project)
			const { document, location } = globalThis as unknown as {
				document: { querySelector(selector: string): unknown };
				location: { pathname: string };
			};
			const app = document.querySelector('#app') as {
				__vue_app__?: {
					config: {
						globalProperties: {
							$router?: { push(to: string): Promise<unknown> };
							$pinia?: { _s: Map<string, Record<string, unknown>> };
						};
					};
				};
			} | null;
			const { $router, $pinia } = app?.__vue_app__?.config.globalProperties ?? {};
			if (!$router || !$pinia || location.pathname === target) return false;
			const settings = $pinia._s.get('settings')?.settings as { versionCli?: string } | undefined;
			if (!/^[2-9]\./.test(settings?.versionCli ?? '')) return false;
			if ([...$pinia._s.values()].some((store) => store.stateIsDirty === true)) return false;
			void $router.push(target);
			return true;
		}, path));
	if (!routed) await page.goto(`${base}${path}`);
	// the workflow's own nodes, not those of the one shown before (n8n 1.x and 2.x: `workflows`)
	await page.waitForFunction(
		(id) => {
			const app = (
				globalThis as unknown as { document: { querySelector(selector: string): unknown } }
			).document.querySelector('#app') as {
				__vue_app__?: {
					config: { globalProperties: { $pinia?: { _s: Map<string, Record<string, unknown>> } } };
				};
			} | null;
			return (
				app?.__vue_app__?.config.globalProperties.$pinia?._s.get('workflows')?.workflowId === id
			);
		},
		workflowId,
		{ timeout: EDITOR_LOAD_MS, polling: 100 },
	);
	await canvasNode(page, nodeName).first().waitFor({ timeout: EDITOR_LOAD_MS });
}

/** Opens a node's panel (NDV) by double-clicking it on the canvas. */
export async function openNode(page: Page, nodeName: string): Promise<Locator> {
	await canvasNode(page, nodeName).first().dblclick();
	const ndv = page.locator('[data-test-id="ndv"]').first();
	await ndv.waitFor({ timeout: 15_000 });
	return ndv;
}

/** Saves a picture of the page under dev/n8n/.screenshots/ (gitignored) and returns its path. */
export async function failureScreenshot(
	page: Page | undefined,
	name: string,
): Promise<string | undefined> {
	if (!page) return undefined;
	const dir = join(__dirname, '.screenshots');
	mkdirSync(dir, { recursive: true });
	const file = join(dir, `${name.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 120)}.png`);
	try {
		await page.screenshot({ path: file, fullPage: true });
		return file;
	} catch {
		return undefined;
	}
}

/**
 * Runs one browser step; on failure saves a screenshot and names it in the error, with what went
 * wrong inside the page meanwhile.
 */
export async function step<T>(page: Page, name: string, body: () => Promise<T>): Promise<T> {
	const mark = pageMark(page);
	try {
		return await body();
	} catch (error) {
		const file = await failureScreenshot(page, name);
		const { errors: inPage, calls } = pageSince(page, mark);
		if (error instanceof Error) {
			// jest prints the stack, which holds the message as it was when V8 first wrote the stack
			// out: read now, before the message grows
			const said = error.message;
			const stack = error.stack;
			if (file) error.message += `\n(screenshot: ${file})`;
			if (inPage.length) error.message += `\n(in the page meanwhile:\n${inPage.join('\n')})`;
			if (calls.length) error.message += `\n(the editor's last calls to n8n:\n${calls.join('\n')})`;
			if (stack?.includes(said)) error.stack = stack.replace(said, error.message);
		}
		throw error;
	}
}
