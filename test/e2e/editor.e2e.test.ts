/**
 * What a new user meets in n8n's editor, in a real browser (Debian's Chromium driven by
 * playwright-core; see browser.ts), on n8n 1.x and 2.x with the packed package installed:
 * the nodes are found by name in both panels, Agent → Execute stays free of red fields whichever
 * agent is picked, each question's description is shown, opening an example (or a workflow saved
 * with a value renamed since) changes nothing, the credential test speaks in words, and while the
 * platform's rate limit holds the key the agent picker and the Model dropdown answer at once from
 * what they showed before, saying so.
 * One n8n per line and one browser for the file. A failing step saves a screenshot in
 * dev/n8n/.screenshots/ (gitignored) and names it in the error.
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor.e2e.test.ts --selectProjects e2e --runInBand
 */
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import type { EditorBrowser } from '../../dev/n8n/browser';
import {
	canvasNode,
	failureScreenshot,
	openNode,
	openWorkflow,
	startEditor,
	step,
} from '../../dev/n8n/browser';
import {
	DEFAULT_OWNER,
	N8nInstance,
	agentPlatformCredential,
	exampleNames,
	loadExample,
	log,
	selectedLines,
} from '../../dev/n8n/harness';
import { freePort } from '../../dev/loopback';
import {
	API_KEY,
	CHANGED_WORDS,
	CHAT_AGENT,
	IMAGE_AGENT,
	RAW_CODE,
	SAVED_BEFORE_RENAME,
	SWITCH_NODE,
	SWITCH_WORKFLOW,
	TEXT_AGENT,
	WORKSPACE_ID,
	chooseOption,
	pickAgent,
	redFields,
	searchPanel,
	seeDescriptions,
	storedWorkflow,
} from './editor.shared';

describe.each(selectedLines())('n8n $line ($version): the editor', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let browser: EditorBrowser | undefined;
	let page: Page;
	const started = Date.now();

	beforeAll(async () => {
		emu = await startEmulator({
			apiKey: API_KEY,
			workspaceId: WORKSPACE_ID,
			timeScale: 10,
			quiet: true,
		});
		n8n = await N8nInstance.withPackage(line);
		const platform = { url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID };
		await n8n.importExamples(platform, 1);
		const chat = loadExample('chat-with-an-agent');
		const switching = {
			...chat,
			id: SWITCH_WORKFLOW,
			name: 'Editor test: one Execute node, three agents',
			nodes: chat.nodes.filter((node) => !/Continue|Note/.test(node.name)),
			// the trigger's connection to the first Execute only
			connections: Object.fromEntries(
				Object.entries(chat.connections).filter(([from]) => /Execute workflow/.test(from)),
			),
		};
		// one import call for both (each call costs seconds)
		await n8n.importWorkflows([SAVED_BEFORE_RENAME, switching]);
		browser = await startEditor(n8n, DEFAULT_OWNER);
		page = browser.page;
		log(`n8n ${line.version}: editor ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.dispose();
		await emu?.stop();
		log(`n8n ${line.version}: editor suite took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	it('finds both nodes by name in the trigger panel and in "What happens next?"; Agent → Execute stays free of red fields for a chat and a text agent', async () => {
		await step(page, `${line.line}-trigger-panel`, async () => {
			await page.goto(`${n8n.baseUrl}/workflow/new`);
			await page.locator('[data-test-id="canvas-add-button"]').first().click();
			for (const text of ['agentPlatform', 'platform']) await searchPanel(page, text);
			const entry = await searchPanel(page, 'Agent Platform');
			await entry.first().click();
			const trigger = page
				.locator('[data-test-id="item-iterator-item"]')
				.filter({ hasText: 'On a finished agent run' });
			await trigger.first().click();
			await page.locator('[data-test-id="ndv"]').first().waitFor({ timeout: 15_000 });
			await page.keyboard.press('Escape');
			const node = canvasNode(page, 'Agent Platform Trigger');
			await node.waitFor({ timeout: 15_000 });
			expect(await node.innerText()).not.toMatch(/undefined/);
		});

		const ndv = await step(page, `${line.line}-what-happens-next`, async () => {
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
		});

		for (const agent of [CHAT_AGENT, TEXT_AGENT]) {
			await step(page, `${line.line}-execute-${agent}`, async () => {
				await pickAgent(page, ndv, agent);
				expect({ agent, red: await redFields(ndv, true) }).toEqual({ agent, red: [] });
				// a model of the chat agent's own, left behind when the text agent is picked
				if (agent === CHAT_AGENT) await chooseOption(page, ndv, 'model', 1);
			});
		}
		await page.keyboard.press('Escape');
	});

	it('one Execute node switched from a chat agent to a text and an image agent: words on the form, no red field, messages only to the chat agent', async () => {
		const executes = () =>
			emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));
		const cases: Array<{
			agent: string;
			labels: string[];
			fill: Array<[string, string | number]>;
		}> = [
			{ agent: CHAT_AGENT, labels: [], fill: [] },
			{
				agent: TEXT_AGENT,
				labels: ['Topic', 'Tone', 'Max Words', 'Keywords (JSON list)'],
				fill: [
					['topic', 'Sea otters'],
					['tone', 0],
				],
			},
			{
				agent: IMAGE_AGENT,
				labels: ['Prompt', 'Size', 'Count', 'Negative Keywords'],
				fill: [
					['prompt', 'A sea otter reading a map'],
					['size', 0],
				],
			},
		];
		await openWorkflow(page, n8n.baseUrl, SWITCH_WORKFLOW, SWITCH_NODE);
		const ndv = await openNode(page, SWITCH_NODE);
		for (const { agent, labels, fill } of cases) {
			await step(page, `${line.line}-switch-${agent}`, async () => {
				if (agent !== CHAT_AGENT) await pickAgent(page, ndv, agent);
				expect({ agent, red: await redFields(ndv, true) }).toEqual({ agent, red: [] });
				// the Message, still filled from the chat agent, says to whom it goes
				await ndv.getByText('Sent only to chat agents').first().waitFor({ timeout: 10_000 });
				const answers = ndv.locator('[data-test-id="resource-mapper-container"]');
				if (labels.length) {
					const words = await answers.innerText();
					for (const label of labels)
						expect({ agent, words }).toEqual({ agent, words: expect.stringContaining(label) });
					expect(words).not.toMatch(/max_words|negative_keywords/);
				}
				if (agent === IMAGE_AGENT) await seeDescriptions(page, ndv);
				for (const [id, value] of fill) {
					const field = answers
						.locator(`[data-test-id$="${id}"][data-test-id^="parameter-input"]`)
						.first();
					await field.scrollIntoViewIfNeeded();
					if (typeof value === 'number') {
						await field.click();
						await page.locator('.el-select-dropdown__item:visible').nth(value).click();
					} else {
						await field.locator('input, textarea').first().fill(value);
					}
				}
				await page.waitForTimeout(500);
				expect({ agent, red: await redFields(ndv) }).toEqual({ agent, red: [] });

				const before = executes().length;
				await ndv.locator('[data-test-id="node-execute-button"]').first().click();
				await emu.waitFor(() => executes().length === before + 1, 60_000);
				const body = executes()[before].body as Record<string, unknown>;
				const answered = body.answers as Record<string, unknown>;
				if (agent === CHAT_AGENT) {
					expect(body.messages).toEqual([
						{ role: 'user', content: 'Which three facts about sea otters surprise most people?' },
					]);
				} else {
					expect({ agent, messages: body.messages, inAnswers: answered.messages }).toEqual({
						agent,
						messages: undefined,
						inAnswers: undefined,
					});
					expect(Object.keys(answered)).toEqual(expect.arrayContaining(fill.map(([id]) => id)));
				}
				// the run finishes and n8n shows its item (its ID in the output) before the next agent
				const runId = Math.max(...emu.state.responses.keys());
				await ndv.getByText(String(runId), { exact: true }).first().waitFor({ timeout: 60_000 });
				await page.waitForTimeout(1000);
			});
		}
		await page.keyboard.press('Escape');
	});

	it('opening each example, and a workflow saved before a rename, and each of its nodes changes nothing', async () => {
		const problems: string[] = [];
		const workflows = [
			...exampleNames().map((name) => [name, loadExample(name)] as const),
			['agent-file-list-v1', SAVED_BEFORE_RENAME] as const,
		];
		for (const [name, example] of workflows) {
			await step(page, `${line.line}-example-${name}`, async () => {
				const first = example.nodes.find((node) => !/stickyNote/i.test(node.type))!;
				await openWorkflow(page, n8n.baseUrl, example.id, first.name);
				const before = await storedWorkflow(page, example.id);
				for (const node of example.nodes) {
					if (/stickyNote|manualTrigger/i.test(node.type)) continue;
					const ndv = await openNode(page, node.name);
					await page.waitForTimeout(2000); // dynamic options and answer fields load
					if (await page.getByText(CHANGED_WORDS).count())
						problems.push(`${name}, ${node.name}: n8n says it changed`);
					if (/agentPlatform/.test(node.type)) {
						for (const red of await redFields(ndv)) problems.push(`${name}, ${node.name}: ${red}`);
					}
					await page.keyboard.press('Escape');
					await page.waitForTimeout(300);
				}
				if (example === SAVED_BEFORE_RENAME) {
					// the old value is shown as what it is, not as an unsupported one
					const ndv = await openNode(page, 'List (old value)');
					const operation = ndv.locator('[data-test-id="parameter-input-operation"] input');
					const shown = await operation.first().inputValue();
					if (shown !== 'List (Old Name of Get Many)')
						problems.push(`${name}: its operation is shown as "${shown}"`);
					await page.keyboard.press('Escape');
				}
				await page.waitForTimeout(2500); // n8n 2.x saves changes on its own after a moment
				const after = await storedWorkflow(page, example.id);
				if (after.versionId !== before.versionId) {
					problems.push(`${name}: n8n saved it again as ${JSON.stringify(after.nodes)}`);
				}
			});
		}
		expect(problems).toEqual([]);
	});

	it('the credential test says in words that nothing answers at the Base URL, and that http:// is missing', async () => {
		const closed = `http://127.0.0.1:${await freePort()}`;
		const platform = { apiKey: API_KEY, workspaceId: WORKSPACE_ID };
		await n8n.importCredentials([
			agentPlatformCredential(
				{ ...platform, url: closed },
				{ id: 'credNothingThere', name: 'Agent Platform (nothing there)' },
			),
			agentPlatformCredential(
				{ ...platform, url: new URL(emu.url).host },
				{ id: 'credNoScheme0000', name: 'Agent Platform (no http)' },
			),
		]);
		const cases: Array<[string, RegExp]> = [
			[
				'Agent Platform (nothing there)',
				/Nothing answered at 127\.0\.0\.1:\d+: check the Base URL/,
			],
			['Agent Platform (no http)', /must start with https:\/\/ \(or http:\/\/\)/],
		];
		for (const [name, words] of cases) {
			await step(page, `${line.line}-credential-${name}`, async () => {
				await page.goto(`${n8n.baseUrl}/home/credentials`);
				await page.getByText(name, { exact: true }).first().click();
				const modal = page.locator('[data-test-id="editCredential-modal"]');
				// n8n opens a saved credential by testing it; its words are behind "More details"
				await modal.getByText('More details').first().click({ timeout: 30_000 });
				await modal.getByText(words).first().waitFor({ timeout: 30_000 });
				expect(await modal.innerText()).not.toMatch(RAW_CODE);
				await page.keyboard.press('Escape');
			});
		}
	});
	it("while the platform's rate limit holds the key, the agent picker and the Model dropdown answer at once from what they showed before, saying how old it is; nothing is sent", async () => {
		const workflow = 'exampleChat00001';
		const node = 'Continue the conversation';
		const openPicker = async (ndv: Locator): Promise<string[]> => {
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
		};
		const openModels = async (ndv: Locator): Promise<string[]> => {
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
		};
		const seen = await step(page, `${line.line}-held-before`, async () => {
			await openWorkflow(page, n8n.baseUrl, workflow, node);
			const ndv = await openNode(page, node);
			const agents = await openPicker(ndv);
			await page.keyboard.press('Escape');
			const models = await openModels(ndv);
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
			return { agents, models, at: Date.now() };
		});
		// what the editor was shown becomes more than a minute old
		await page.waitForTimeout(Math.max(0, seen.at + 62_000 - Date.now()));
		// another client with the same key spends the platform's budget: the next request is refused
		// with the documented 60 s wait
		emu.setFaults({ rateLimitPerSecond: 0.001, rateLimitBurst: 1, retryAfterSeconds: 60 });
		const other = await fetch(`${emu.url}/agents`, {
			headers: { Authorization: `Bearer ${API_KEY}`, 'x-workspace-id': WORKSPACE_ID },
		});
		expect(other.status).toBe(200);
		const sent = emu.requests.length;
		try {
			await step(page, `${line.line}-held-kept`, async () => {
				await openWorkflow(page, n8n.baseUrl, workflow, node);
				const started = Date.now();
				const ndv = await openNode(page, node);
				const agents = await openPicker(ndv);
				await failureScreenshot(page, `${line.line}-held-agent-picker`);
				const note =
					/^As of \d+ minutes? ago: the platform's rate limit holds this API key for about \d+ more seconds$/;
				// one entry says how old the list is; the others are what the picker showed before
				expect(agents.filter((text) => note.test(text))).toHaveLength(1);
				expect(agents.filter((text) => !note.test(text))).toEqual(seen.agents);
				expect(seen.agents.length).toBeGreaterThan(1);
				await page.keyboard.press('Escape');
				const models = await openModels(ndv);
				await failureScreenshot(page, `${line.line}-held-model-dropdown`);
				// each of the agent's own models says it (Agent Default is the node's own)
				expect(models.filter((text) => /As of \d+ minutes? ago/.test(text))).toHaveLength(
					seen.models.length - 1,
				);
				// within seconds, not after the minute the key is held (the margin is for a busy machine)
				expect(Date.now() - started).toBeLessThan(20_000);
				await page.keyboard.press('Escape');
				await page.keyboard.press('Escape');
			});
			// the first lookup was refused (the platform held the key); nothing was sent after it
			const after = emu.requests.slice(sent);
			expect(after.map((r) => r.status)).toEqual(after.length ? [429] : []);
		} finally {
			emu.resetFaults();
		}
	});
});
