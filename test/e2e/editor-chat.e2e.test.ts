/**
 * A chat with a platform agent in n8n's editor, as a new user has it, in a real browser (see
 * browser.ts): Chat Trigger → Agent Platform → Agent → Execute (Stream, node version 1.2, no
 * message typed), the editor's chat panel, one message. The answer is the run's output, taken from
 * the chat by default; where the editor's chat shows an answer as it is written (n8n 2.x, Chat
 * Trigger in Streaming mode), it grows in the panel over the run. Screenshots of each step are
 * saved under dev/n8n/.screenshots/ and checked by the test (the text each one shows).
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor-chat.e2e.test.ts --selectProjects e2e
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

import { openNode, openWorkflow, step } from '../../dev/n8n/browser';
import { agentPlatformCredential, log } from '../../dev/n8n/harness';
import { useEditorOfLine } from './editor.shared';
import { chatAgentVars, loadWorkflow, describeEachLine } from './fixtures';
import { CHAT_AGENT } from '../../dev/emulator';

const CREDENTIAL = { id: 'credEditorChat01', name: 'Agent Platform (editor chat)' };
const WORKFLOW = 'editorChat000001';
const TRIGGER = 'When chat message received';
/** The editor's chat shows a streamed answer as it comes (found by this test; see the log line). */
const STREAMS_IN_PANEL: Record<string, boolean> = { '1.x': false, '2.x': true };
const SHOTS = join(__dirname, '..', '..', 'dev', 'n8n', '.screenshots');

const MESSAGE = 'Tell me about otters';

/**
 * The answer as the person reads it in the editor's chat panel: the panel's text after the message
 * sent (a message being streamed has no "from bot" mark yet, so the panel is read as a whole).
 */
async function shownAnswer(page: Page): Promise<string> {
	const panel = page.locator('[data-test-id="canvas-chat"]').first();
	const text = await panel.innerText().catch(() => '');
	// the first time the message stands is its own bubble (the answer may repeat it)
	const at = text.indexOf(MESSAGE);
	return at < 0 ? '' : text.slice(at + MESSAGE.length).trim();
}

describeEachLine()('n8n $line ($version): a chat in the editor', (line) => {
	const editor = useEditorOfLine(
		line,
		'editor-chat',
		(emu) => [
			loadWorkflow('chat-trigger-execute', {
				...chatAgentVars(emu, CHAT_AGENT),
				CREDENTIAL_ID: CREDENTIAL.id,
				CREDENTIAL_NAME: CREDENTIAL.name,
				RESPONSE_MODE: 'streaming',
			}),
		],
		{
			// a run of 4 s streamed in 8 pieces: growing text is visible between two looks
			emulator: { executionSeconds: 4 },
			testWebhooks: true,
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
		},
	);
	beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

	it('Chat Trigger → Execute with no message typed answers the chat with the run’s output', async () => {
		const { emu, n8n, page, id } = editor;
		await step(page, `${line.line}-chat-execute-form`, async () => {
			await openWorkflow(page, n8n.baseUrl, id(WORKFLOW), TRIGGER);
			// the node as saved with nothing typed: its message comes from the chat
			const ndv = await openNode(page, 'Agent Platform');
			const source = ndv.locator('[data-test-id="parameter-input-messageSource"] input').first();
			expect(await source.inputValue()).toBe('Connected Chat Trigger Node');
			expect(await ndv.locator('[data-test-id="parameter-input-message"]').count()).toBe(0);
			await page.screenshot({
				path: join(SHOTS, `${line.line}-chat-execute-form.png`),
				animations: 'disabled',
			});
			await page.keyboard.press('Escape');
		});
		await step(page, `${line.line}-chat-open`, async () => {
			await page.locator('[data-test-id="workflow-chat-button"]').first().click();
			await page
				.locator('[data-test-id="canvas-chat"] textarea, .chat-input textarea')
				.first()
				.waitFor();
		});
		// what the panel showed while the run went on, and when
		const seen: Array<{ at: number; text: string; runEnded: boolean }> = [];
		const sentAt = Date.now();
		await step(page, `${line.line}-chat-answer`, async () => {
			const input = page.locator('[data-test-id="canvas-chat"] textarea').first();
			await input.fill(MESSAGE);
			await input.press('Enter');
			const deadline = Date.now() + 60_000;
			for (;;) {
				const text = await shownAnswer(page);
				const run = [...emu.state.runs.values()].pop();
				const runEnded = run?.status === 'succeeded';
				if (text && text !== seen[seen.length - 1]?.text) {
					seen.push({ at: Date.now() - sentAt, text, runEnded });
					// the first look at a part of the answer, and the answer whole: the two screenshots
					if (seen.length === 1)
						await page.screenshot({ path: join(SHOTS, `${line.line}-chat-first-look.png`) });
				}
				if (runEnded && text.includes(String(run.output).trim())) break;
				if (Date.now() > deadline)
					throw new Error(`no whole answer in the chat after 60 s: ${text}`);
				await page.waitForTimeout(100);
			}
			await page.screenshot({ path: join(SHOTS, `${line.line}-chat-answered.png`) });
		});
		const run = [...emu.state.runs.values()].pop()!;
		const output = String(run.output).trim();
		// the message came from the chat (nothing typed in the node), and the answer is the run's output
		expect(run.input).toContain(MESSAGE);
		expect(seen[seen.length - 1].text).toContain(output);
		// every look showed a beginning of the answer, never anything else
		for (const look of seen)
			expect(output.startsWith(look.text) || look.text.includes(output)).toBe(true);
		const whileRunning = seen.filter((look) => !look.runEnded && look.text !== output);
		log(
			`n8n ${line.version}: the chat panel showed the answer in ${seen.length} looks (${whileRunning.length} while the run went on): ${seen.map((look) => `${look.text.length} characters at ${(look.at / 1000).toFixed(1)} s`).join(', ')}`,
		);
		// with the Chat Trigger on Streaming and Execute on Stream, the panel shows it as it is written
		if (STREAMS_IN_PANEL[line.line]) expect(whileRunning.length).toBeGreaterThanOrEqual(3);
	});
});
