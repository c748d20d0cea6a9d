/**
 * The chat failures a newcomer meets first, run in an n8n of a test's own (npm start's layout, the
 * README's install paths): a wrong key and a missing agent, for the Agent Platform Chat Model
 * under an AI Agent and for Agent → Execute (Stream), each under a Chat Trigger. Each case is one
 * message to the public chat; what the chat printed and what the editor shows of the failed
 * execution are read back (chatSurfaces.ts).
 */
import { randomUUID } from 'node:crypto';

import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential, type N8nInstance } from '../../dev/n8n/harness';
import { chatWorkflow, editorError, lastExecutionId, node, publicChat } from './chatSurfaces';
import { CHAT_AGENT } from '../../dev/emulator';

const MISSING_AGENT = 99999;

/**
 * The platform's rate limit holding `apiKey` for an hour: a window of one request an hour (a limit
 * of 0 turns the window off), its one request spent as another workflow of the key would spend it;
 * every later request gets a 429 asking 3600 s, whenever it is read (the window's own count goes
 * down with the clock).
 */
export async function holdKeyForAnHour(
	emu: PlatformEmulator,
	apiKey: string,
	workspaceId: string,
): Promise<void> {
	emu.setFaults({ rateLimitWindow: { limit: 1, seconds: 3600 }, retryAfterSeconds: 3600 });
	await fetch(`${emu.url}/agents`, {
		headers: { authorization: `Bearer ${apiKey}`, 'x-workspace-id': workspaceId },
	});
}

/** What one case showed: the chat's words and the editor's error panel for the same execution. */
export interface ChatFailureSeen {
	what: string;
	chat: string;
	panelTitle: string;
	panelDetails: string;
	words: RegExp;
}

/**
 * Creates the cases' credentials and workflows in `n8n` (running, owner set up), activates them,
 * sends one message to each, and returns what each surface showed.
 */
export async function runChatFailures(
	n8n: N8nInstance,
	emu: PlatformEmulator,
	platform: { apiKey: string; workspaceId: string },
	tag: string,
): Promise<ChatFailureSeen[]> {
	const endpoint = { url: emu.url, ...platform };
	const credential = async (name: string, apiKey: string) => {
		const made = agentPlatformCredential({ ...endpoint, apiKey }, { id: 'unused', name });
		return { agentPlatformApi: { id: await n8n.createCredential(made), name } };
	};
	const good = await credential(`${tag}: Agent Platform`, platform.apiKey);
	const wrong = await credential(`${tag}: Agent Platform (wrong key)`, 'not-the-key');
	const options = emu.firstOptions(CHAT_AGENT);
	const agentId = (id: number) => ({ __rl: true, mode: 'id', value: String(id) });
	const model = (id: number, ref: typeof good) =>
		node(
			'Agent Platform Chat Model',
			'n8n-nodes-agent-platform.lmChatAgentPlatform',
			1,
			{ agentId: agentId(id), ...options, options: { idleTimeout: 3 } },
			ref,
		);
	const aiAgent = () => node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, { options: {} });
	const execute = (id: number, ref: typeof good) =>
		node(
			'Agent Platform',
			'n8n-nodes-agent-platform.agentPlatform',
			1.3,
			{
				resource: 'agent',
				operation: 'execute',
				agentId: agentId(id),
				messageSource: 'chatTrigger',
				responseMode: 'stream',
				...options,
				options: { idleTimeout: 3 },
			},
			ref,
		);
	const lm = 'ai_languageModel';
	const cases = [
		{
			what: 'Chat Model: wrong key',
			root: aiAgent(),
			sub: [{ node: model(CHAT_AGENT, wrong), type: lm }],
			words: /The platform rejected the API key/,
		},
		{
			what: 'Chat Model: missing agent',
			root: aiAgent(),
			sub: [{ node: model(MISSING_AGENT, good), type: lm }],
			words: new RegExp(`The platform could not find agent ${MISSING_AGENT}`),
		},
		{
			what: 'Execute: wrong key',
			root: execute(CHAT_AGENT, wrong),
			sub: [],
			words: /The platform rejected the API key/,
		},
		{
			what: 'Execute: missing agent',
			root: execute(MISSING_AGENT, good),
			sub: [],
			words: new RegExp(`The platform could not find agent ${MISSING_AGENT}`),
		},
	];
	const seen: ChatFailureSeen[] = [];
	for (const [index, item] of cases.entries()) {
		const webhookId = randomUUID();
		const fixtureId = `${tag}${index + 1}`.slice(0, 16).padEnd(16, '0');
		const fixture = chatWorkflow(fixtureId, webhookId, item.root, item.sub);
		const workflowId = await n8n.createWorkflow(fixture);
		await n8n.activate(workflowId);
		const before = await lastExecutionId(n8n, workflowId);
		const chat = await publicChat(n8n, webhookId, 'hello');
		const panel = await editorError(n8n, workflowId, before);
		seen.push({
			what: item.what,
			chat: chat.error,
			panelTitle: panel.message,
			panelDetails: panel.description,
			words: item.words,
		});
	}
	return seen;
}

/** The rows as docs/errors-and-retries.md's table has them, for the log. */
export function seenTable(seen: ChatFailureSeen[]): string {
	return seen
		.map((s) => `| ${s.what} | ${s.chat} | ${s.panelTitle} | ${s.panelDetails} |`)
		.join('\n');
}

/** The package's words in the chat and as the editor's title, never n8n's "Original error". */
export function expectPackageWords(seen: ChatFailureSeen[]): void {
	for (const s of seen) {
		expect({ what: s.what, chat: s.chat }).toEqual({
			what: s.what,
			chat: expect.stringMatching(s.words),
		});
		expect({ what: s.what, title: s.panelTitle }).toEqual({
			what: s.what,
			title: expect.stringMatching(s.words),
		});
		for (const text of [s.chat, s.panelTitle, s.panelDetails])
			expect(text).not.toMatch(/Original error/);
	}
}
