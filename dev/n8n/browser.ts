/**
 * n8n's editor in a real browser: Debian's Chromium (`apt-get install chromium`), headless, driven
 * by playwright-core (no browser download: executablePath). Used by the editor e2e suite and by
 * `npm run screenshots`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

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

export interface EditorBrowser {
	context: BrowserContext;
	page: Page;
	close(): Promise<void>;
}

/** One Chromium with a fresh, empty profile (removed by close()). */
export async function launchBrowser(): Promise<EditorBrowser> {
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
	await page.goto(`${base}/signin`);
	// n8n 2.x gives the field an id, 1.x a name
	await page
		.locator('#emailOrLdapLoginId, input[name="emailOrLdapLoginId"]')
		.first()
		.fill(owner.email);
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

/** A new browser with the owner of a running n8n signed in (close it when done). */
export async function openEditor(
	baseUrl: string,
	owner: { email: string; password: string },
): Promise<EditorBrowser> {
	const browser = await launchBrowser();
	try {
		await signIn(browser.page, baseUrl, owner);
	} catch (error) {
		await browser.close();
		throw error;
	}
	return browser;
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a workflow and waits for one of its nodes on the canvas. */
export async function openWorkflow(
	page: Page,
	base: string,
	workflowId: string,
	nodeName: string,
): Promise<void> {
	await page.goto(`${base}/workflow/${workflowId}`);
	await canvasNode(page, nodeName).first().waitFor({ timeout: 30_000 });
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

/** Runs one browser step; on failure saves a screenshot and names it in the error. */
export async function step<T>(page: Page, name: string, body: () => Promise<T>): Promise<T> {
	try {
		return await body();
	} catch (error) {
		const file = await failureScreenshot(page, name);
		if (error instanceof Error && file) error.message += `\n(screenshot: ${file})`;
		throw error;
	}
}
