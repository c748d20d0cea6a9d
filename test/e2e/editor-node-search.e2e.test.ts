/**
 * The three nodes in n8n's node panel with the codex n8n's coming rules allow ("AI" and
 * subcategories only on the chat model, built on the AI node SDK; the action node and the trigger
 * in Development), in Chromium on n8n 1.x and 2.x. Searching "Agent Platform" or "Tess"
 * (production's name, a codex alias) finds: in "What happens next?", the action node; in the
 * AI Agent's Chat Model slot (n8n's Language Models list, where the panel shows sub-nodes), the chat
 * model, listed there before any search too; in the trigger panel, the entry of the action node and
 * its trigger, described by the trigger (in the entry on 2.x, in its node view on both), and the chat
 * model (an "AI" node marked Root Nodes is in the main search). The words a newcomer types for
 * Workspace → Get Usage ("usage", "credits", "get usage", "billing": codex aliases, since n8n
 * searches names and aliases only) find the action node in both panels, and its view lists the
 * action. The entry's description is the trigger's (n8n gives a merged entry the trigger's): it
 * names the actions first. The trigger, listening for its test event, says its own words on the
 * canvas. Screenshots (node-search-*.png, trigger-*.png) go into docs/screenshots/ with
 * UPDATE_SCREENSHOTS=1, else into dev/n8n/.screenshots/ (gitignored: a run leaves the checkout as
 * it was).
 *
 * @lines 1.x 2.x (the node panel and its codex differ between the lines)
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor-node-search.e2e.test.ts --selectProjects e2e
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

import {
	canvasNode,
	closeNode,
	loadEditorPage,
	openNode,
	openWorkflow,
	restSettled,
	step,
} from '../../dev/n8n/browser';
import { loadExample, log } from '../../dev/n8n/harness';
import { useEditorOfLine } from './editor.shared';
import { describeEachLine } from './fixtures';

const SHOTS =
	process.env.UPDATE_SCREENSHOTS === '1'
		? join(__dirname, '..', '..', 'docs', 'screenshots')
		: join(__dirname, '..', '..', 'dev', 'n8n', '.screenshots');
const LONE_AGENT = 'searchLoneAgent1';
const MODEL = 'Agent Platform Chat Model';
// the merged entry's description, the trigger's (n8n gives the entry the trigger's): actions first
const ENTRY_DESCRIPTION =
	'Run Agent Platform agents and manage their files, memories, webhooks and usage, or start a workflow when an agent run finishes';
/** What a newcomer types for Workspace → Get Usage: each finds the action node. */
const USAGE_WORDS = ['usage', 'credits', 'get usage', 'billing'];
const GET_USAGE = 'Get workspace usage';

const TRIGGER_EXAMPLE = loadExample('when-an-agent-finishes');
const TRIGGER_NODE = 'When the agent finishes';
// the trigger's own listening words (its eventTriggerDescription), written here by hand
const LISTENING =
	'Waiting for a finished run of the picked agent: run it (Agent → Execute, or on the platform)';

/** The chat example's trigger and AI Agent, no model connected yet. */
function loneAgent() {
	const example = loadExample('chat-with-a-platform-model-in-the-ai-agent');
	return {
		...example,
		id: LONE_AGENT,
		name: 'An AI Agent without a model',
		nodes: example.nodes.filter((node) => /chat message received|AI Agent/.test(node.name)),
		connections: Object.fromEntries(
			Object.entries(example.connections).filter(([from]) => /chat message received/.test(from)),
		),
	};
}

/** The panel's entries after a search, once the one expected is shown. */
async function search(page: Page, text: string, expected: string): Promise<string[]> {
	const bar = page.locator('[data-test-id="node-creator-search-bar"]').first();
	await bar.waitFor({ timeout: 15_000 });
	await bar.fill(text);
	const items = page.locator('[data-test-id="item-iterator-item"]');
	await items.filter({ hasText: expected }).first().waitFor({ timeout: 15_000 });
	return await items.allInnerTexts();
}

async function shot(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/** The entry named exactly so (an entry's text is its name, then its description). */
const named = (entries: string[], name: string) =>
	entries.filter((entry) => entry.split('\n')[0].trim() === name);

describeEachLine()('n8n $line ($version): the nodes in the node panel', (line) => {
	const editor = useEditorOfLine(line, 'editor-node-search', [loneAgent(), TRIGGER_EXAMPLE], {
		testWebhooks: true,
	});
	const tag = line.line.replace('.', '');
	// the editor's first load (its scripts compiled and cached by the browser) may take longer than a
	// step's wait on a busy machine: it is done once here, where nothing is asserted
	beforeAll(async () => {
		const { n8n, page, id } = editor;
		await page.goto(`${n8n.baseUrl}/workflow/${id(LONE_AGENT)}`);
		await canvasNode(page, 'AI Agent').first().waitFor({ timeout: 120_000 });
	});

	it('"What happens next?" finds the action node by "Agent Platform", "Tess" and the words of Get Usage, whose action it lists', async () => {
		const { page } = editor;
		await step(page, `${line.line}-search-next`, async () => {
			// the workflow as the first load above left it (a second load costs Chromium 10 to 20 s of CPU)
			await page.locator('[data-test-id="node-creator-plus-button"]').first().click();
			for (const text of ['Agent Platform', 'Tess', ...USAGE_WORDS]) {
				const entries = await search(page, text, 'Agent Platform');
				log(`n8n ${line.version}: "What happens next?", "${text}": ${JSON.stringify(entries)}`);
				expect({ text, found: named(entries, 'Agent Platform').length }).toEqual({
					text,
					found: 1,
				});
				if (text === 'Agent Platform') await shot(page, `node-search-${tag}-what-happens-next`);
			}
			// the entry found by "billing" opened: Get Usage among its actions
			const items = page.locator('[data-test-id="item-iterator-item"]');
			await items.filter({ hasText: 'Agent Platform' }).first().click();
			const panel = page.locator('[data-test-id="node-creator"]').first();
			const usage = panel.getByText(GET_USAGE).first();
			await usage.waitFor({ timeout: 15_000 });
			await usage.scrollIntoViewIfNeeded();
			await shot(page, `node-search-${tag}-usage-action`);
			await page.keyboard.press('Escape');
		});
	});

	it('the AI Agent’s Chat Model slot lists the chat model among n8n’s language models, found by "Agent Platform" and by "Tess"', async () => {
		const { n8n, page, id } = editor;
		await step(page, `${line.line}-search-model-slot`, async () => {
			await openWorkflow(page, n8n.baseUrl, id(LONE_AGENT), 'AI Agent');
			// the slot's list is n8n's Language Models group, the model in it before any search
			const model = await openModelSlot(page);
			await model.scrollIntoViewIfNeeded();
			await shot(page, `node-search-${tag}-model-slot`);
			for (const text of ['Agent Platform', 'Tess']) {
				const entries = await search(page, text, MODEL);
				expect({ text, found: named(entries, MODEL).length }).toEqual({ text, found: 1 });
				if (text === 'Tess') await shot(page, `node-search-${tag}-model-slot-tess`);
			}
			await page.keyboard.press('Escape');
		});
	});

	it('the trigger panel finds the nodes and the chat model by "Agent Platform" and by "Tess", the nodes by the words of Get Usage; the entry describes the actions, then the trigger', async () => {
		const { n8n, page } = editor;
		await step(page, `${line.line}-search-trigger-panel`, async () => {
			const add = '[data-test-id="canvas-add-button"]';
			await loadEditorPage(page, `${n8n.baseUrl}/workflow/new`, add);
			await page.locator(add).first().click();
			for (const text of ['Agent Platform', 'Tess', ...USAGE_WORDS]) {
				const entries = await search(page, text, 'Agent Platform');
				log(`n8n ${line.version}: trigger panel, "${text}": ${JSON.stringify(entries)}`);
				const entry = named(entries, 'Agent Platform');
				// the chat model by its names (the words of Get Usage are the action node's)
				const model = USAGE_WORDS.includes(text) ? {} : { model: named(entries, MODEL).length };
				expect({ text, entry: entry.length, ...model }).toEqual({
					text,
					entry: 1,
					...(USAGE_WORDS.includes(text) ? {} : { model: 1 }),
				});
				// 2.x shows each entry's description: the trigger's (1.x shows names only)
				if (line.line === '2.x') expect(entry[0]).toContain(ENTRY_DESCRIPTION);
				if (text === 'Tess') await shot(page, `node-search-${tag}-trigger-panel`);
			}
			const items = page.locator('[data-test-id="item-iterator-item"]');
			await items.filter({ hasText: 'Agent Platform' }).first().click();
			// the node's own view (both lines): its trigger, with the trigger's description
			const panel = page.locator('[data-test-id="node-creator"]').first();
			await panel.getByText('On a finished agent run').first().waitFor({ timeout: 15_000 });
			expect(await panel.innerText()).toContain(ENTRY_DESCRIPTION);
			await shot(page, `node-search-${tag}-trigger-details`);
			await page.keyboard.press('Escape');
		});
	});

	it('the trigger, listening for its test event, says in its own words on the canvas what sends it (its eventTriggerDescription)', async () => {
		const { emu, n8n, page, id } = editor;
		await step(page, `${line.line}-trigger-listening`, async () => {
			await openWorkflow(page, n8n.baseUrl, id(TRIGGER_EXAMPLE.id), TRIGGER_NODE);
			const ndv = await openNode(page, TRIGGER_NODE);
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			// the test URL registered on the picked agent: the trigger listens
			const deadline = Date.now() + 30_000;
			while (![...emu.state.webhooks.values()].some((w) => /webhook-test/.test(w.url))) {
				if (Date.now() > deadline) throw new Error('the trigger registered no test webhook');
				await page.waitForTimeout(200);
			}
			// the node view's listening line is n8n's own ("Go to <name> and create an event", from the
			// display name: editor-ui TriggerPanel); logged, not the node's to choose
			const view = ndv.locator('[data-test-id="trigger-listening"]').first();
			await view.waitFor({ timeout: 15_000 });
			log(
				`n8n ${line.version}: the node view while listening: ${JSON.stringify(await view.innerText())}`,
			);
			await shot(page, `trigger-${tag}-listening-node-view`);
			await closeNode(page);
			// the canvas (both lines): the trigger's own words above it
			await page.getByText(LISTENING).first().waitFor({ timeout: 15_000 });
			await shot(page, `trigger-${tag}-listening-canvas`);
			// stop listening: n8n removes the test webhook again
			await page
				.locator(
					'[data-test-id="stop-execution-button"], [data-test-id="stop-execution-waiting-for-webhook-button"]',
				)
				.first()
				.click()
				.catch(() => undefined);
		});
	});
});

/**
 * The model slot's list, opened by its "+", and the chat model's entry in it. On a loaded machine
 * n8n's editor once took the click before the canvas was ready and opened its general AI panel
 * ("Other AI Nodes") instead: the panel is closed and the "+" clicked again, as a person would.
 */
async function openModelSlot(page: Page): Promise<Locator> {
	const model = page
		.locator('[data-test-id="item-iterator-item"]')
		.filter({ hasText: MODEL })
		.first();
	for (let attempt = 1; ; attempt++) {
		await modelSlot(page).click();
		await restSettled(page);
		try {
			await model.waitFor({ timeout: 15_000 });
			return model;
		} catch (error) {
			if (attempt === 2) throw error;
			await page.keyboard.press('Escape');
		}
	}
}

/** The "+" of the AI Agent's Chat Model input on the canvas (its handle's id names the input). */
function modelSlot(page: Page): Locator {
	return page
		.locator('[data-handleid="inputs/ai_languageModel/0"] [data-test-id="canvas-handle-plus"]')
		.first();
}
