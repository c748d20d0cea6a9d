/**
 * While the platform's rate limit holds the key, the agent picker and the Model dropdown of n8n's
 * editor answer at once from what they showed before, saying how old it is, and nothing is sent:
 * in a real browser on n8n 1.x and 2.x (the line's shared n8n, an emulator and a browser of the
 * case's own). What the editor was shown must be more than a minute old on n8n's clock (the node
 * marks a kept answer after KEPT_REPLIES.markAfterMs): the first look is taken in the set-up, and
 * the file holding the case runs its other cases during that minute (editor-examples).
 */
import type { Locator, Page } from 'playwright-core';

import { failureScreenshot, openNode, openWorkflow, step } from '../../dev/n8n/browser';
import { loadExample, type N8nLine } from '../../dev/n8n/harness';
import { API_KEY, WORKSPACE_ID, useEditorOfLine } from './editor.shared';

const NODE = 'Continue the conversation';
/** How old what the editor was shown must be before the key is held (a minute, and a margin). */
const AGE_MS = 62_000;

async function openPicker(page: Page, ndv: Locator): Promise<string[]> {
	await ndv
		.locator('[data-test-id="resource-locator-agentId"] [data-test-id="rlc-input-container"]')
		.click();
	const items = page.locator('[data-test-id="rlc-item"]');
	await items.first().waitFor({ timeout: 15_000 });
	// n8n 2.x lists the picked agent at once, and the search's entries once they are loaded
	await page
		.locator('[class*="loadingItem"]')
		.first()
		.waitFor({ state: 'detached', timeout: 15_000 });
	return (await items.allInnerTexts()).map((text) => text.trim());
}

async function openModels(page: Page, ndv: Locator): Promise<string[]> {
	const input = ndv.locator('[data-test-id="parameter-input-model"]');
	const options = page.locator('.el-select-dropdown__item:visible');
	// a first click may only close the picker's list
	for (let tries = 0; tries < 3 && !(await options.count()); tries++) {
		await input.scrollIntoViewIfNeeded();
		await input.click();
		await options
			.first()
			.waitFor({ timeout: 5000 })
			.catch(() => undefined);
	}
	return await options.allInnerTexts();
}

/**
 * The case's set-up and first look, as a beforeAll of the enclosing describe (register it first:
 * the minute runs from there); `test()` registers the case itself, to be called after the cases
 * that run during the minute.
 */
export function useHeldLookups(line: N8nLine): { test(): void } {
	const editor = useEditorOfLine(line, 'editor-held', [loadExample('chat-with-an-agent')]);
	const workflow = () => editor.id('exampleChat00001');
	let firstLook: Promise<{ agents: string[]; models: string[]; at: number }>;
	beforeAll(async () => {
		const { page, n8n } = editor;
		firstLook = step(page, `${line.line}-held-before`, async () => {
			await openWorkflow(page, n8n.baseUrl, workflow(), NODE);
			const ndv = await openNode(page, NODE);
			const agents = await openPicker(page, ndv);
			await page.keyboard.press('Escape');
			const models = await openModels(page, ndv);
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
			return { agents, models, at: Date.now() };
		});
		// a failed first look fails the held case, not the cases that run meanwhile
		await firstLook.catch(() => undefined);
	});

	return {
		test: () =>
			it("while the platform's rate limit holds the key, the agent picker and the Model dropdown answer at once from what they showed before, saying how old it is; nothing is sent", async () => {
				const { emu, n8n, page } = editor;
				const seen = await firstLook;
				// what the editor was shown becomes more than a minute old (the other cases took most of it)
				await page.waitForTimeout(Math.max(0, seen.at + AGE_MS - Date.now()));
				// another client with the same key spends the platform's budget: the next request is
				// refused with the documented 60 s wait
				emu.setFaults({ rateLimitPerSecond: 0.001, rateLimitBurst: 1, retryAfterSeconds: 60 });
				const other = await fetch(`${emu.url}/agents`, {
					headers: { Authorization: `Bearer ${API_KEY}`, 'x-workspace-id': WORKSPACE_ID },
				});
				expect(other.status).toBe(200);
				const sent = emu.requests.length;
				try {
					await step(page, `${line.line}-held-kept`, async () => {
						await openWorkflow(page, n8n.baseUrl, workflow(), NODE);
						// answered while the key is held, not after: the notes say the hold is still on,
						// and a lookup that waited it out would have been sent (checked below)
						const ndv = await openNode(page, NODE);
						const agents = await openPicker(page, ndv);
						await failureScreenshot(page, `${line.line}-held-agent-picker`);
						const note =
							/^As of \d+ minutes? ago: the platform's rate limit holds this API key for about \d+ more seconds$/;
						// one entry says how old the list is; the others are what the picker showed before
						expect(agents.filter((text) => note.test(text))).toHaveLength(1);
						expect(agents.filter((text) => !note.test(text))).toEqual(seen.agents);
						expect(seen.agents.length).toBeGreaterThan(1);
						await page.keyboard.press('Escape');
						const models = await openModels(page, ndv);
						await failureScreenshot(page, `${line.line}-held-model-dropdown`);
						// each of the agent's own models says it (Agent Default is the node's own)
						expect(models.filter((text) => /As of \d+ minutes? ago/.test(text))).toHaveLength(
							seen.models.length - 1,
						);
						await page.keyboard.press('Escape');
						await page.keyboard.press('Escape');
					});
					// the first lookup was refused (the platform held the key); nothing was sent after it
					const after = emu.requests.slice(sent);
					expect(after.map((r) => r.status)).toEqual(after.length ? [429] : []);
				} finally {
					emu.resetFaults();
				}
			}),
	};
}
