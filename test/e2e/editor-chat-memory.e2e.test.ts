/**
 * A chat that remembers, in n8n's editor as a person has it, in a real browser (see browser.ts):
 * the example "chat with a platform agent that remembers" (Chat Trigger on Streaming → Agent →
 * Execute on Stream, with Simple Memory) opened as imported, the form's line on what a Memory changes, two messages in the
 * editor's chat (manual runs). The second answer shows that the agent saw the first (the
 * emulator's chat agent says the user's earlier messages), and its request continued the first
 * conversation. The screenshot of the panel is
 * saved under dev/n8n/.screenshots/ once its text is checked; the README's
 * docs/screenshots/chat-memory.png is the 2.x one.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor-chat-memory.e2e.test.ts --selectProjects e2e
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { openNode, openWorkflow, step } from '../../dev/n8n/browser';
import { EXAMPLE_CREDENTIALS, agentPlatformCredential, loadExample } from '../../dev/n8n/harness';
import { useEditorOfLine } from './editor.shared';
import { CHAT_AGENT } from '../../dev/emulator';
import { describeEachLine } from './fixtures';

const EXAMPLE = 'chat-with-a-platform-agent-that-remembers';
const TRIGGER = 'When chat message received';
const SHOTS = join(__dirname, '..', '..', 'dev', 'n8n', '.screenshots');
const FIRST = 'My name is Ada.';
const SECOND = 'What is my name?';

describeEachLine()('n8n $line ($version): a chat that remembers, in the editor', (line) => {
	const editor = useEditorOfLine(line, 'editor-chat-memory', [loadExample(EXAMPLE)], {
		emulator: { executionSeconds: 1 },
		testWebhooks: true,
		credentials: (platform) => [
			agentPlatformCredential(platform, EXAMPLE_CREDENTIALS.agentPlatform),
		],
	});
	beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

	const executes = () =>
		editor.emu.requests.filter(
			(r) => r.method === 'POST' && r.path === `/agents/${CHAT_AGENT}/execute`,
		);
	const panelText = async () =>
		await editor.page
			.locator('[data-test-id="canvas-chat"]')
			.first()
			.innerText()
			.catch(() => '');

	/** Sends one message in the editor's chat and waits until the run's answer is shown. */
	async function send(message: string): Promise<string> {
		const { emu, page } = editor;
		const before = executes().length;
		const input = page.locator('[data-test-id="canvas-chat"] textarea').first();
		await input.fill(message);
		await input.press('Enter');
		const deadline = Date.now() + 60_000;
		// the chat takes a message once it has ended the answer before (on a loaded machine, after the
		// answer shows): until it takes it, the message stays in the box, and a person presses Enter again
		let pressedAt = Date.now();
		for (;;) {
			if (Date.now() - pressedAt > 2_000 && (await input.inputValue()) === message) {
				await input.press('Enter');
				pressedAt = Date.now();
			}
			const run = [...emu.state.runs.values()].pop();
			const answered = executes().length > before && run?.status === 'succeeded';
			if (answered && (await panelText()).includes(run.output.trim())) return run.output;
			if (Date.now() > deadline)
				throw new Error(`no answer in the chat after 60 s: ${await panelText()}`);
			await page.waitForTimeout(200);
		}
	}

	it('two messages: the second continues the first conversation, and its answer shows the first was seen', async () => {
		const { emu, n8n, page, id } = editor;
		await step(page, `${line.line}-memory-open`, async () => {
			await openWorkflow(page, n8n.baseUrl, id(loadExample(EXAMPLE).id), TRIGGER);
			// the form's line under a Chat Trigger: what a Memory changes
			const ndv = await openNode(page, 'Chat with the agent');
			expect(await ndv.innerText()).toContain(
				'With a Memory (e.g. Simple Memory) connected to this node',
			);
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id="workflow-chat-button"]').first().click();
			await page.locator('[data-test-id="canvas-chat"] textarea').first().waitFor();
		});
		const first = await step(page, `${line.line}-memory-first`, async () => await send(FIRST));
		const second = await step(page, `${line.line}-memory-second`, async () => await send(SECOND));
		const [firstBody, secondBody] = executes().map((r) => r.body as Record<string, unknown>);
		const firstRun = [...emu.state.runs.values()][0];
		// one request a turn; the second continues the first conversation with only the new message
		expect(executes()).toHaveLength(2);
		// the example streams: Execute asks the platform for a stream (Response Mode: Stream)
		expect(executes().map((r) => String((r.body as Record<string, unknown>).stream))).toEqual([
			'true',
			'true',
		]);
		expect(firstBody.root_id).toBeUndefined();
		expect(secondBody).toMatchObject({
			root_id: firstRun.root_id,
			messages: [{ role: 'user', content: SECOND }],
		});
		expect(first).not.toContain('Earlier in this conversation');
		expect(second).toContain(`Earlier in this conversation you wrote: "${FIRST}"`);
		// the picture shows both turns and the answer that remembers
		const shown = await panelText();
		for (const text of [FIRST, SECOND, `you wrote: "${FIRST}"`]) expect(shown).toContain(text);
		await page.screenshot({ path: join(SHOTS, `${line.line}-chat-memory.png`) });
	});
});
