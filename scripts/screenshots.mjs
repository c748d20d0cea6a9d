#!/usr/bin/env node
/**
 * npm run screenshots: the README's pictures of the nodes in a real n8n editor.
 *
 *   1. builds and packs the package; n8n (2.x, or N8N_LINE=1) from the install cache;
 *   2. starts the platform emulator and a throw-away n8n with the package, the credentials and
 *      the example workflows of examples/ (as `npm start` has them);
 *   3. drives Debian's Chromium (`apt-get install chromium`) headless with playwright-core (no
 *      browser download: executablePath), signs in and takes the pictures into docs/screenshots/
 *      (the forms of Execute and of the chat model; those of a chat run are the editor e2e tests');
 *   4. stops everything and removes the temporary folders.
 *
 * Environment: CHROMIUM (default /usr/bin/chromium), N8N_LINE (2), KEEP=1 keeps n8n's folder.
 * Not part of `npm test`.
 */
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
	DEV_PLATFORM,
	DEV_SIGN_IN,
	N8nInstance,
	REPO,
	ensureN8n,
	lineByName,
	loadBrowser,
	loadEmulator,
	log,
	packPackage,
	setLogPrefix,
} from './dev-tools.mjs';

const OUT = join(REPO, 'docs', 'screenshots');
const { startEmulator } = loadEmulator();
const { launchBrowser, openNode, openWorkflow, signIn } = loadBrowser();

setLogPrefix('screenshots');
const OWNER = DEV_SIGN_IN;
const API_KEY = DEV_PLATFORM.apiKey;
const WORKSPACE_ID = DEV_PLATFORM.workspaceId;
const line = lineByName(process.env.N8N_LINE || '2');

async function shoot(page, name, what) {
	const file = join(OUT, name);
	await page.waitForTimeout(600); // let animations settle
	await page.screenshot({ path: file });
	log(`${relative(REPO, file)}: ${what}`);
}

async function takeScreenshots(page, base) {
	// 1. The agent picker: the platform's agents, searchable, each with its description.
	await openWorkflow(page, base, 'exampleChat00001', 'Ask the agent');
	await openNode(page, 'Ask the agent');
	await page.waitForTimeout(1500);
	await page
		.locator('[data-test-id="resource-locator-agentId"] [data-test-id="rlc-input-container"]')
		.click();
	await page.locator('[data-test-id="rlc-item"]').first().waitFor({ timeout: 15_000 });
	await shoot(page, 'agent-picker.png', 'the agent picker (Agent → Execute)');
	await page.keyboard.press('Escape');

	// 2. Execute's form: Model, Tools and Temperature are the picked agent's own choices.
	const model = page.locator('[data-test-id="parameter-input-model"]');
	await model.scrollIntoViewIfNeeded();
	await model.click();
	await page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.first()
		.waitFor({ timeout: 15_000 });
	await shoot(page, 'execute-form.png', "Execute's form with the agent's own models loaded");
	await page.keyboard.press('Escape');

	// 3. A finished run: Execute step, then the output.
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const output = page.locator('[data-test-id="output-panel"]');
	await output.getByText('root_id').first().waitFor({ timeout: 60_000 });
	await shoot(page, 'run-output.png', 'the output of a finished run');
	await page.keyboard.press('Escape');

	// 4. The AI Agent example: a platform agent as the tool of n8n's AI Agent.
	await page.goto(`${base}/workflow/exampleAiAgent01`);
	await page
		.locator('[data-test-id="canvas-node"][data-node-name="AI Agent"]')
		.waitFor({ timeout: 30_000 });
	await page
		.locator('[data-test-id="zoom-to-fit"]')
		.click()
		.catch(() => undefined);
	await page.waitForTimeout(1500);
	await shoot(page, 'ai-agent-example.png', 'the AI Agent example on the canvas');

	// 5. The trigger: what sends its test event, and when https matters.
	await openWorkflow(page, base, 'exampleTrigger01', 'When the agent finishes');
	await openNode(page, 'When the agent finishes');
	await page
		.getByText('Run the picked agent to send the test event')
		.first()
		.waitFor({ timeout: 15_000 });
	await shoot(page, 'trigger-panel.png', "the trigger's panel and notice");
	await page.keyboard.press('Escape');

	// 6. Execute after a Chat Trigger (the chat that remembers): Message Source is the chat's
	// message; the notices say what a Memory and the chat's files do.
	await openWorkflow(page, base, 'exampleMemChat01', 'Chat with the agent');
	await openNode(page, 'Chat with the agent');
	await page
		.getByText('With a Memory (e.g. Simple Memory)')
		.locator('visible=true')
		.first()
		.waitFor({ timeout: 30_000 });
	await page.waitForTimeout(1500);
	await shoot(page, 'chat-execute-form.png', 'Execute after a Chat Trigger');
	await page.keyboard.press('Escape');

	// 7. The chat model's form: chat agents only, then the picked agent's models.
	await openWorkflow(page, base, 'exampleModel0001', 'AI Agent');
	await openNode(page, 'Agent Platform Chat Model');
	await page.waitForTimeout(1500);
	const models = page.locator('[data-test-id="parameter-input-model"]');
	await models.click();
	await page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.first()
		.waitFor({ timeout: 15_000 });
	await shoot(page, 'chat-model-form.png', "the chat model's form with the agent's models");
	await page.keyboard.press('Escape');
}

async function main() {
	mkdirSync(OUT, { recursive: true });
	await ensureN8n(line);
	const tarball = await packPackage();
	const emulator = await startEmulator({
		apiKey: API_KEY,
		workspaceId: WORKSPACE_ID,
		timeScale: 5,
		quiet: true,
	});
	const n8n = await N8nInstance.create(line);
	let browser;
	try {
		await n8n.installPackage(tarball);
		const platform = { url: emulator.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID };
		await n8n.importExamples(platform);
		log(`starting n8n ${line.version}`);
		await n8n.start({ timeoutMs: 180_000 });
		await n8n.rest('POST', '/owner/setup', OWNER);
		browser = await launchBrowser();
		await signIn(browser.page, n8n.baseUrl, OWNER);
		await takeScreenshots(browser.page, n8n.baseUrl);
	} catch (error) {
		log(`failed; n8n's log: ${n8n.logFile}`);
		throw error;
	} finally {
		await browser?.close();
		if (process.env.KEEP === '1') {
			await n8n.stop();
			log(`kept ${n8n.folder}`);
		} else {
			await n8n.dispose();
		}
		await emulator.stop();
	}
}

main().catch((error) => {
	process.stderr.write(
		`\n[screenshots] failed: ${error instanceof Error ? error.stack : String(error)}\n`,
	);
	process.exit(1);
});
