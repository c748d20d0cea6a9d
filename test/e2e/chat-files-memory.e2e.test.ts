/**
 * A chat that takes files and a memory that sends each thing once, in real n8n 2.x through the
 * Chat Trigger's own public webhook (the line's shared n8n, test/e2e/README.md; a Redis of the
 * file's own for the memory):
 * - Chat Trigger (Allow File Uploads) → Agent → Execute (node version 1.3, a System message in
 *   History) with Simple Memory: a message with a file, sent as multipart as n8n's chat sends it,
 *   is uploaded, processed and attached, and named in Execute's output (`files`) and the agent's
 *   answer; the next message without one is an ordinary message that
 *   carries only itself and the root_id (the instructions not again); a message with a file and
 *   no text attaches the file and sends a line naming it; two messages of one session sent at once
 *   are one conversation;
 * - in the editor (Chromium): the form of node version 1.3 says what happens with the chat's
 *   files and offers Attach Chat Files; a node saved at 1.2 shows neither (screenshots under
 *   dev/n8n/.screenshots/);
 * - the same with Redis Chat Memory and Retry On Fail: Redis stopped while the agent's run is under
 *   way: one platform run, the answer kept in the chat and in the item with its memory_note, and
 *   an execution hint.
 *
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/chat-files-memory.e2e.test.ts --selectProjects e2e --runInBand
 */
import { join } from 'node:path';

import { startEmulator, type PlatformEmulator } from '../../dev/emulator';
import { openNode, openWorkflow, step } from '../../dev/n8n/browser';
import {
	agentPlatformCredential,
	fixtureId,
	log,
	waitFor,
	type N8nLine,
} from '../../dev/n8n/harness';
import {
	agentExecutes,
	sendChatMessage,
	startMemoryRedis,
	type MemoryRedis,
} from './chatMemory.shared';
import { chatAgentVars, describeEachLine, loadWorkflow } from './fixtures';
import { openEditorOn } from './editor.shared';
import { n8nOfLine, type LineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-chat-files-key-5d0b';
const WORKSPACE_ID = '42';
const INSTRUCTIONS = 'Answer in one short sentence.';
const CREDENTIAL = { id: fixtureId('credChatFiles'), name: 'Agent Platform (chat files)' };
const REDIS_CREDENTIAL_ID = fixtureId('credChatRedis');
const FILES_WORKFLOW = 'chatFilesMemory1';
const REDIS_WORKFLOW = 'chatRedisMemory1';
// the same chat with the Agent Platform node as saved at version 1.2 (never activated)
const OLD_WORKFLOW = 'chatFilesMemoryV';
const SHOTS = join(__dirname, '..', '..', 'dev', 'n8n', '.screenshots');
const FILES_WEBHOOK = '7c2e1f30-51ab-4d6e-8f10-00000000f11e';
const REDIS_WEBHOOK = '7c2e1f30-51ab-4d6e-8f10-00000000d15c';

// n8n 2.x only: one n8n start keeps the file short; the 1.x line's chat memory runs in the other
// e2e files
describeEachLine(['2.x'])(
	'n8n $line ($version): files in the chat, a memory that sends each thing once',
	(line: N8nLine) => {
		let emu: PlatformEmulator;
		let fixture: LineN8n;
		let memory: MemoryRedis | undefined;
		const started = Date.now();

		beforeAll(async () => {
			emu = await startEmulator({ apiKey: API_KEY, workspaceId: WORKSPACE_ID, quiet: true });
			memory = await startMemoryRedis(REDIS_CREDENTIAL_ID);
			const credentials = [
				agentPlatformCredential(
					{ url: emu.url, apiKey: API_KEY, workspaceId: WORKSPACE_ID },
					CREDENTIAL,
				),
				memory.credential,
			];
			const vars = {
				...chatAgentVars(emu, CHAT_AGENT),
				CREDENTIAL_ID: CREDENTIAL.id,
				CREDENTIAL_NAME: CREDENTIAL.name,
				REDIS_CREDENTIAL_ID,
			};
			const current = loadWorkflow('chat-files-memory', vars);
			const saved = loadWorkflow('chat-files-memory', vars, {
				id: OLD_WORKFLOW,
				name: `${current.name} (node version 1.2)`,
				nodes: current.nodes.map((node) =>
					node.name === 'Agent Platform'
						? { ...node, typeVersion: 1.2 }
						: { ...node, webhookId: '7c2e1f30-51ab-4d6e-8f10-0000000f1e12' },
				),
			});
			fixture = await n8nOfLine(line, {
				tag: 'chat-files-memory',
				credentials,
				workflows: [current, loadWorkflow('chat-redis-memory', vars), saved],
			});
			await fixture.activate(FILES_WORKFLOW);
			await fixture.activate(REDIS_WORKFLOW);
			log(
				`n8n ${line.version} chat files: set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		});

		afterAll(async () => {
			await fixture?.release();
			await memory?.stop();
			await emu?.stop();
			log(`n8n ${line.version} chat files: took ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});

		const executes = () => agentExecutes(emu, CHAT_AGENT);
		const uploads = () => emu.requests.filter((r) => r.method === 'POST' && r.path === '/files');

		/** One chat message to a public chat of the file's (JSON, or multipart with files). */
		const say = (
			webhook: string,
			sessionId: string,
			chatInput: string,
			files: Array<{ name: string; text: string }> = [],
		) =>
			sendChatMessage(
				`${fixture.n8n.baseUrl}/webhook/${fixture.webhookId(webhook)}/chat`,
				sessionId,
				chatInput,
				files,
			);
		const outputOf = (answer: { status: number; text: string }) => {
			expect(answer).toMatchObject({ status: 200 });
			return JSON.parse(answer.text) as Record<string, unknown>;
		};

		test('a message with a file: attached and answered; the next without one carries only itself and the root_id', async () => {
			emu.clearRequests();
			const first = outputOf(
				await say(FILES_WEBHOOK, 'files-ada', 'What is in my notes?', [
					{ name: 'notes.txt', text: 'Ada likes green tea.' },
				]),
			);
			expect(uploads()).toHaveLength(1);
			const [file] = [...emu.state.files.values()].filter((f) => f.filename === 'notes.txt');
			expect(file).toBeDefined();
			expect(executes()[0]).toMatchObject({
				file_ids: [Number(file.id)],
				messages: [
					{ role: 'developer', content: INSTRUCTIONS },
					{ role: 'user', content: 'What is in my notes?' },
				],
			});
			expect(executes()[0].root_id).toBeUndefined();
			expect(String(first.output)).toContain('What is in my notes?');
			// the files that went with the run, in the output and in the agent's answer
			expect(first.files).toEqual([{ id: Number(file.id), name: 'notes.txt' }]);
			expect(String(first.output)).toContain('I received the attached file notes.txt.');

			const second = outputOf(await say(FILES_WEBHOOK, 'files-ada', 'Thank you.'));
			expect(uploads()).toHaveLength(1);
			expect(executes()).toHaveLength(2);
			const rootId = [...emu.state.runs.values()].find((r) => r.id === first.id)?.root_id;
			expect(executes()[1].file_ids).toBeUndefined();
			// only the new message and the root_id: the instructions are not sent again
			expect(executes()[1]).toMatchObject({
				root_id: rootId,
				messages: [{ role: 'user', content: 'Thank you.' }],
			});
			expect(String(second.output)).toContain('Earlier in this conversation you wrote');
		});

		test('a message with a file and no text: the file is attached, the agent gets a line naming it', async () => {
			emu.clearRequests();
			const answer = outputOf(
				await say(FILES_WEBHOOK, 'files-only', '', [{ name: 'menu.txt', text: 'Tea and cake.' }]),
			);
			expect(uploads()).toHaveLength(1);
			const file = [...emu.state.files.values()].find((f) => f.filename === 'menu.txt');
			expect(executes()).toEqual([
				expect.objectContaining({
					file_ids: [Number(file?.id)],
					messages: [
						{ role: 'developer', content: INSTRUCTIONS },
						{ role: 'user', content: 'Attached file: menu.txt' },
					],
				}),
			]);
			expect(String(answer.output)).toContain('Attached file: menu.txt');
		});

		test('two messages of one session sent at once: one conversation', async () => {
			emu.clearRequests();
			const [a, b] = await Promise.all([
				say(FILES_WEBHOOK, 'files-at-once', 'First at once.'),
				say(FILES_WEBHOOK, 'files-at-once', 'Second at once.'),
			]);
			const answers = [outputOf(a), outputOf(b)];
			expect(executes()).toHaveLength(2);
			const started = executes().filter((body) => body.root_id === undefined);
			const continued = executes().filter((body) => body.root_id !== undefined);
			expect(started).toHaveLength(1);
			expect(continued).toHaveLength(1);
			expect(new Set(answers.map((answer) => answer.root_id)).size).toBe(1);
		});

		test('Redis stopped during the run: one platform run, the answer kept with its note and a hint', async () => {
			outputOf(await say(REDIS_WEBHOOK, 'redis-ada', 'My name is Ada.'));
			emu.clearRequests();
			const runsBefore = emu.state.runs.size;
			const answer = say(REDIS_WEBHOOK, 'redis-ada', 'What is my name?');
			// the memory was read and the run is under way (the emulator's run lasts 3 s): Redis goes
			await waitFor('the second run to start', () => (executes().length ? true : undefined));
			await memory!.redis.stop();
			const kept = outputOf(await answer);
			expect(String(kept.output)).toContain('Earlier in this conversation you wrote');
			expect(String(kept.memory_note)).toMatch(/answer was kept.*could not store/);
			expect(executes()).toHaveLength(1);
			expect(emu.state.runs.size).toBe(runsBefore + 1);

			const [newest] = await fixture.n8n.getExecutions(fixture.id(REDIS_WORKFLOW), { limit: 1 });
			expect(newest.status).toBe('success');
			const data = newest.data as {
				resultData: {
					runData: Record<string, Array<{ hints?: Array<{ message: string }> }>>;
				};
			};
			const tasks = data.resultData.runData['Agent Platform'];
			// one try: Retry On Fail had nothing to retry
			expect(tasks).toHaveLength(1);
			expect((tasks[0].hints ?? []).map((hint) => hint.message)).toEqual(
				expect.arrayContaining([expect.stringMatching(/Memory could not store this turn/)]),
			);
		});

		test("the editor: Execute's form says what happens with the chat's files; a 1.2 node keeps its own", async () => {
			const browser = await openEditorOn(fixture);
			const { page } = browser;
			try {
				/** The Agent Platform node's panel: its text, and the options Add Option offers. */
				const form = async (workflowId: string, shot: string) =>
					await step(page, shot, async () => {
						await openWorkflow(page, fixture.n8n.baseUrl, fixture.id(workflowId), 'Agent Platform');
						const ndv = await openNode(page, 'Agent Platform');
						const text = await ndv.innerText();
						// the form's top: Message Source and what follows it
						await ndv.getByText('Message Source').first().scrollIntoViewIfNeeded();
						await page.screenshot({ path: join(SHOTS, `${shot}.png`) });
						// Options → Add Option: the options the node offers
						await ndv.locator('[data-test-id="collection-parameter-add"]').first().click();
						const offered = page.locator('[data-test-id="collection-parameter-option"]:visible');
						await offered.first().waitFor({ timeout: 10_000 });
						const options = await offered.allInnerTexts();
						await page.screenshot({ path: join(SHOTS, `${shot}-options.png`) });
						await page.keyboard.press('Escape');
						await page.keyboard.press('Escape');
						return { text, options: options.map((option) => option.trim()) };
					});
				const current = await form(FILES_WORKFLOW, `${line.line}-chat-files-form`);
				log(`n8n ${line.version}: 1.3 form options: ${current.options.join(' | ')}`);
				expect(current.text).toContain('Files sent with a chat message');
				expect(current.options).toContain('Attach Chat Files');
				const saved = await form(OLD_WORKFLOW, `${line.line}-chat-files-form-v1.2`);
				log(`n8n ${line.version}: 1.2 form options: ${saved.options.join(' | ')}`);
				expect(saved.text).not.toContain('Files sent with a chat message');
				expect(saved.text).toContain(
					'(version 1.2) does not attach the files sent with a chat message',
				);
				expect(saved.options).not.toContain('Attach Chat Files');
				expect(saved.options).toContain('Attach Input Binaries');
			} finally {
				await browser.close();
			}
		});
	},
);
