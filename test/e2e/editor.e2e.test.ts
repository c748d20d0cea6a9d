/**
 * What a new user meets in n8n's editor, in a real browser (Debian's Chromium driven by
 * playwright-core; see browser.ts), on n8n 1.x and 2.x with the packed package installed:
 * the nodes are found by name in both panels, Agent → Execute stays free of red fields whichever
 * agent is picked, each question's description is shown, an agent ID typed digit by digit By ID
 * gives the form of the agent finally typed (none of those on the way), and the credential test
 * speaks in words.
 * editor-examples opens an example per node of the package; editor.held.ts (run there) checks the
 * lookups while the rate limit holds the key. An n8n of the file's own on each line (a new
 * user's: one credential) and one browser for the file. A failing step saves a screenshot in
 * dev/n8n/.screenshots/ (gitignored) and names it in the error.
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor.e2e.test.ts --selectProjects e2e
 * @slow (minutes: started first when jest has no times of a run before)
 */

import {
	canvasNode,
	loadEditorPage,
	openNode,
	openWorkflow,
	restSettled,
	step,
} from '../../dev/n8n/browser';
import { agentPlatformCredential, loadExample, log } from '../../dev/n8n/harness';
import { freePort } from '../../dev/loopback';
import { pageMark, pageSince } from '../../dev/n8n/pageErrors';
import {
	API_KEY,
	CHAT_AGENT,
	IMAGE_AGENT,
	RAW_CODE,
	SWITCH_NODE,
	SWITCH_WORKFLOW,
	TEXT_AGENT,
	WORKSPACE_ID,
	addExecuteAfter,
	answerTextAgent,
	chooseOption,
	useEditorOfLine,
	pickAgent,
	redFields,
	searchPanel,
	seeDescriptions,
} from './editor.shared';
import { describeEachLine } from './fixtures';

/** A copy of the chat example with its first Execute node only, switched between agents. */
function switchingWorkflow() {
	const chat = loadExample('chat-with-an-agent');
	return {
		...chat,
		id: SWITCH_WORKFLOW,
		name: 'Editor test: one Execute node, three agents',
		nodes: chat.nodes.filter((node) => !/Continue|Note/.test(node.name)),
		// the trigger's connection to the first Execute only
		connections: Object.fromEntries(
			Object.entries(chat.connections).filter(([from]) => /Execute workflow/.test(from)),
		),
	};
}

describeEachLine()('n8n $line ($version): the editor', (line) => {
	const editor = useEditorOfLine(
		line,
		'editor',
		[switchingWorkflow()],
		// a new user's n8n: the new node gets the one credential there is
		{ fresh: true },
	);

	it('finds both nodes by name in the trigger panel and in "What happens next?"; Agent → Execute stays free of red fields for a chat and a text agent', async () => {
		const { n8n, page } = editor;
		await step(page, `${line.line}-trigger-panel`, async () => {
			const add = '[data-test-id="canvas-add-button"]';
			await loadEditorPage(page, `${n8n.baseUrl}/workflow/new`, add);
			await page.locator(add).first().click();
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

		const ndv = await step(
			page,
			`${line.line}-what-happens-next`,
			async () => await addExecuteAfter(page),
		);

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
		const { emu, n8n, page, id } = editor;
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
		await openWorkflow(page, n8n.baseUrl, id(SWITCH_WORKFLOW), SWITCH_NODE);
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
				await restSettled(page);
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
				const runId = Math.max(...emu.state.runs.keys());
				await ndv.getByText(String(runId), { exact: true }).first().waitFor({ timeout: 60_000 });
				await restSettled(page);
			});
		}
		await page.keyboard.press('Escape');
	});

	it('Agent → By ID typed digit by digit (99999, then 3): the form follows the agent finally typed, reads the ID given once, and the run starts', async () => {
		const { emu, n8n, page, id } = editor;
		const agentReads = () =>
			emu.requests
				.filter((r) => r.method === 'GET' && /^\/agents\/\d+$/.test(r.path))
				.map((r) => r.path);
		await openWorkflow(page, n8n.baseUrl, id(SWITCH_WORKFLOW), SWITCH_NODE);
		const ndv = await openNode(page, SWITCH_NODE);
		await restSettled(page);
		const agent = ndv.locator('[data-test-id="resource-locator-agentId"]');
		const answers = ndv.locator('[data-test-id="resource-mapper-container"]');
		const input = agent.locator(
			'input[data-test-id="rlc-input"], [data-test-id="rlc-input"] input',
		);
		/** When the platform refused a request (429) before the typing began: a held key asks nothing. */
		const refusedAt: string[] = [];
		let typingBegan = pageMark(page);
		/** Types the ID as a person does, a digit every 120 ms, in the field emptied first. */
		const typeId = async (agentId: string) => {
			await input.first().fill('');
			await restSettled(page);
			typingBegan = pageMark(page);
			for (const r of emu.requests)
				if (r.status === 429) refusedAt.push(new Date(r.at).toISOString().slice(11, 23));
			emu.clearRequests();
			await input.first().pressSequentially(agentId, { delay: 120 });
			await restSettled(page, { quietMs: 1500 });
		};
		/** What a person does when the editor shows nothing, or an earlier ID's answer: types 99999's last digit again. */
		const typeLastDigitAgain = async (why: string) => {
			// the lookups since the typing began, each with the agent it was asked for
			const calls = pageSince(page, typingBegan).calls.join('\n');
			log(`n8n ${line.version}: ${why}; the last digit typed again. Since the typing:\n${calls}`);
			await input.first().press('Backspace');
			await input.first().pressSequentially('9', { delay: 120 });
			await restSettled(page, { quietMs: 1500 });
		};
		await step(page, `${line.line}-by-id-99999`, async () => {
			await agent.locator('[data-test-id="rlc-mode-selector"]').click();
			await page.locator('[data-test-id="mode-id"]:visible').first().click();
			await typeId('99999');
			// the editor reads the ID once typing pauses: on a loaded machine later than the quiet above,
			// and once (a CI run beside the fast tests) not within 30 s: a person who sees nothing come
			// types the last digit again, and so does the test
			const read = () => agentReads().includes('/agents/99999');
			if (
				!(await emu.waitFor(read, 30_000).then(
					() => true,
					() => false,
				))
			) {
				await typeLastDigitAgain('no read of 99999 within 30 s');
				await emu.waitFor(read, 60_000).catch((error: Error) => {
					// what the platform was asked instead (twice seen: the form's lookups came, no read)
					const asked = emu.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
					throw new Error(
						`${error.message}; the platform was asked: ${asked.join(', ') || 'nothing'}; 429s before: ${refusedAt.join(', ') || 'none'}`,
					);
				});
			}
			await restSettled(page);
			// agent 9's required Script (the video agent) never came: no field, no red mark
			expect(await answers.innerText()).not.toMatch(/Script/);
			expect(await redFields(ndv)).toEqual([]);
			// the form's lookups and Answer Name or ID's share one read of the ID given (a 404); IDs
			// on the way are not read at a person's pace (the integration test times it; a machine
			// whose cores are taken by other runs may space the editor's requests past the 700 ms)
			expect(agentReads().filter((path) => path === '/agents/99999')).toHaveLength(1);
			expect(agentReads().every((path) => '/agents/99999'.startsWith(path))).toBe(true);
			const guide = ndv.locator('[data-test-id="parameter-input-answerDescriptions"]');
			const guideSays = async (text: string, timeout: number) => {
				await guide.scrollIntoViewIfNeeded();
				await guide.click();
				const item = page.locator('.el-select-dropdown__item:visible').filter({ hasText: text });
				const shown = await item
					.first()
					.waitFor({ timeout })
					.then(() => true)
					.catch(() => false);
				await page.keyboard.press('Escape');
				return shown;
			};
			if (!(await guideSays('No Agent With This ID', 15_000))) {
				// a loaded machine's editor sends the changes over the settling time apart (2.8 s for five):
				// a list asked at 9 is agent 9's, as after a person's pause. They type the last digit again.
				await typeLastDigitAgain("the answer list was an earlier ID's");
				expect(await guideSays('No Agent With This ID', 30_000)).toBe(true);
			}
			// no words name an ID on the way (99, 9999), in the form or the list opened
			expect(await ndv.innerText()).not.toMatch(/\b9{2,4}\b/);
		});
		await step(page, `${line.line}-by-id-3`, async () => {
			await typeId('3');
			// the form follows once the editor has the agent (read, or kept from the test before)
			await answers.getByText('Topic').first().waitFor({ timeout: 30_000 });
			await restSettled(page);
			const words = await answers.innerText();
			for (const label of ['Topic', 'Tone']) expect(words).toContain(label);
			expect(words).not.toMatch(/Script|Prompt/);
			expect(agentReads().filter((path) => path !== '/agents/3')).toEqual([]);
			await answerTextAgent(page, ndv, 'formal');
			expect(await redFields(ndv)).toEqual([]);
			const executes = () =>
				emu.requests.filter((r) => r.method === 'POST' && r.path === '/agents/3/execute');
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			await emu.waitFor(() => executes().length === 1, 60_000);
			// only the text agent's own answers: nothing left of the image agent picked before
			expect((executes()[0].body as Record<string, unknown>).answers).toEqual({
				topic: 'Sea otters',
				tone: 'formal',
			});
			const runId = Math.max(...emu.state.runs.keys());
			await ndv.getByText(String(runId), { exact: true }).first().waitFor({ timeout: 60_000 });
		});
		await page.keyboard.press('Escape');
	});

	it("a newcomer's first run: Manual Trigger → Execute with a text agent runs at once, its required answers marked, no chat notice", async () => {
		const { emu, n8n, page } = editor;
		const ndv = await step(page, `${line.line}-manual-execute-form`, async () => {
			const add = '[data-test-id="canvas-add-button"]';
			await loadEditorPage(page, `${n8n.baseUrl}/workflow/new`, add);
			await page.locator(add).first().click();
			const search = page.locator('[data-test-id="node-creator-search-bar"]');
			await search.waitFor({ timeout: 15_000 });
			await search.fill('manual');
			await page
				.locator('[data-test-id="item-iterator-item"]')
				.filter({ hasText: /Trigger manually|Manual/ })
				.first()
				.click();
			// n8n names it "When clicking ‘Execute workflow’"
			await page
				.locator('[data-test-id="canvas-node"][data-node-name^="When clicking"]')
				.first()
				.waitFor({ timeout: 15_000 });
			await page.keyboard.press('Escape');
			const panel = await addExecuteAfter(page);
			await pickAgent(page, panel, TEXT_AGENT);
			const text = await panel.innerText();
			// the form cannot know of a chat here: no chat notice, and the message's source says both cases
			expect(text).not.toContain('With a Memory');
			expect(text).not.toContain('Files sent with a chat message');
			const source = panel.locator('[data-test-id="parameter-input-messageSource"] input').first();
			expect(await source.inputValue()).toBe('Chat Message, Else Message Below');
			// the text agent's required answers, marked (n8n 2.41.1 draws no mark of its own in mode map)
			const answers = panel.locator('[data-test-id="resource-mapper-container"]');
			const words = await answers.innerText();
			for (const label of ['Topic *', 'Tone *']) expect(words).toContain(label);
			expect(words).not.toContain('Max Words *');
			return panel;
		});
		await step(page, `${line.line}-manual-execute-run`, async () => {
			await answerTextAgent(page, ndv, 'formal');
			const executes = () =>
				emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));
			const before = executes().length;
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			await emu.waitFor(() => executes().length === before + 1, 60_000);
			const body = executes()[before].body as Record<string, unknown>;
			expect(body.messages).toBeUndefined();
			expect(body.answers).toEqual({ topic: 'Sea otters', tone: 'formal' });
			const runId = Math.max(...emu.state.runs.keys());
			await ndv.getByText(String(runId), { exact: true }).first().waitFor({ timeout: 60_000 });
			expect(await ndv.innerText()).not.toContain('No chat message to send');
		});
		await page.keyboard.press('Escape');
	});

	it('the credential test says in words that nothing answers at the Base URL, and that http:// is missing', async () => {
		const { emu, n8n, page, id } = editor;
		const closed = `http://127.0.0.1:${await freePort()}`;
		const platform = { apiKey: API_KEY, workspaceId: WORKSPACE_ID };
		// through n8n's API, as the editor saves them (n8n's import command starts its CLI for seconds)
		for (const credential of [
			agentPlatformCredential(
				{ ...platform, url: closed },
				{ id: id('credNothingThere'), name: 'Agent Platform (nothing there)' },
			),
			agentPlatformCredential(
				{ ...platform, url: new URL(emu.url).host },
				{ id: id('credNoScheme0000'), name: 'Agent Platform (no http)' },
			),
		])
			await n8n.createCredential(credential);
		const cases: Array<[string, RegExp]> = [
			[
				'Agent Platform (nothing there)',
				/Nothing answered at 127\.0\.0\.1:\d+: check the Base URL/,
			],
			['Agent Platform (no http)', /must start with https:\/\/ \(or http:\/\/\)/],
		];
		for (const [name, words] of cases) {
			await step(page, `${line.line}-credential-${name}`, async () => {
				// the list stays shown under the closed dialog of the case before
				if (!page.url().startsWith(`${n8n.baseUrl}/home/credentials`))
					await loadEditorPage(page, `${n8n.baseUrl}/home/credentials`, `text=${name}`);
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
});
