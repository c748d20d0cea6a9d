/**
 * n8n's chat hub and public chat as a test drives them: a message sent in a new (or the same)
 * conversation of the chat hub through n8n's REST API, as the chat page sends it, or to the public
 * chat's URL; what the model was given as a tool's result (its second request at the emulator) and
 * what the chat shows. Used by chat-hub-tools.e2e.test.ts and test/measure/chat-hub-tools.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import type { PlatformEmulator } from '../../dev/emulator';
import { sleep, waitFor, type N8nInstance } from '../../dev/n8n/harness';
import type { LineN8n } from './lineN8n';

/** The published workflow of test/e2e/workflows/chat-hub-tools.json: a tool of each shape. */
export const TOOL_SHAPES_WORKFLOW = 'chatHubToolShap1';
export const TOOL_SHAPES_CHAT_WEBHOOK = '8a1b2c3d-1051-4e5f-8a00-000000000001';
/** Its tools, by name: each asked for as `Use <name> on "otter".` */
export const TOOL_SHAPES = [
	'codestring',
	'codenumber',
	'subworkflow',
	'Calculator',
	'Think',
	'httptool',
	'httpnode',
	'platformagent',
];

export interface ChatSurfaces {
	emu: PlatformEmulator;
	n8n: N8nInstance;
	fixture: LineN8n;
}

export interface ChatHubTurn {
	/** The tool's result as the model got it (undefined: no second request, or no result in it). */
	result?: string;
	/** What the chat hub shows for the turn. */
	shown: string;
	/** The id of the turn's last message (the next turn's previousMessageId). */
	last: string;
	/** The conversation's title. */
	title: string;
}

/** The chat hub and the public chat of a running n8n with the tool-shapes workflow. */
export function chatSurfaces(of: () => ChatSurfaces) {
	/** The tool's result as the model got it: the second request's result message. */
	async function resultGiven(tool: string): Promise<string | undefined> {
		const second = await waitFor(`the model's request after ${tool} ran`, async () => {
			const [, after] = of().emu.requests.filter((r) => r.path.endsWith('/chat/completions'));
			return after;
		});
		const messages = (second.body as { messages: IDataObject[] }).messages;
		const result = [...messages]
			.reverse()
			.find((m) => String(m.content).startsWith('Result of the tool'));
		return result === undefined ? undefined : String(result.content).replace(/^[^\n]*\n/, '');
	}

	type Conversation = {
		session: { title: string };
		conversation: {
			messages: Record<
				string,
				{ id: string; type: string; content: unknown; status: string; createdAt: string }
			>;
		};
	};

	const textOf = (m: { content: unknown }) =>
		(m.content as Array<{ content?: string }>).map((part) => part.content ?? '').join('');

	async function viaChatHub(
		tool: string,
		sessionId = randomUUID(),
		previousMessageId: string | null = null,
		{ workflow = TOOL_SHAPES_WORKFLOW, message = `Use ${tool} on "otter".`, calls = true } = {},
	): Promise<ChatHubTurn> {
		const aiMessages = async () => {
			const { conversation, session } = await of().n8n.rest<Conversation>(
				'GET',
				`/chat/conversations/${sessionId}`,
			);
			const ai = Object.values(conversation.messages)
				.filter((m) => m.type === 'ai' && m.status === 'success')
				.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
			return { ai, title: session.title };
		};
		const before = previousMessageId ? (await aiMessages()).ai.length : 0;
		await of().n8n.rest('POST', '/chat/conversations/send', {
			messageId: randomUUID(),
			sessionId,
			message,
			model: { provider: 'n8n', workflowId: of().fixture.id(workflow) },
			previousMessageId,
			credentials: {},
			attachments: [],
			timeZone: 'UTC',
		});
		const result = calls ? await resultGiven(tool) : undefined;
		const answers = await waitFor('the chat hub to keep the answer', async () => {
			const { ai, title } = await aiMessages();
			// the turn is over when its last answer has text (a call's step is a message without)
			const turn = ai.slice(before);
			return turn.length > 0 && textOf(turn[turn.length - 1]) !== '' ? { ai, title } : undefined;
		});
		// the chat hub keeps a message per model answer of the turn: the text is in the last ones
		const shown = answers.ai.slice(before).map(textOf).join('');
		return { result, shown, last: answers.ai.at(-1)!.id, title: answers.title };
	}

	async function viaPublicChat(tool: string): Promise<{ result?: string; shown: string }> {
		let response: Response | undefined;
		for (let attempt = 0; attempt < 40; attempt++) {
			response = await fetch(
				`${of().n8n.baseUrl}/webhook/${of().fixture.webhookId(TOOL_SHAPES_CHAT_WEBHOOK)}/chat`,
				{
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						action: 'sendMessage',
						sessionId: randomUUID(),
						chatInput: `Use ${tool} on "otter".`,
					}),
				},
			);
			if (response.status !== 404) break;
			await sleep(500);
		}
		// the streamed answer: JSON lines, the text in the `item` ones' content
		const shown = (await response!.text())
			.split('\n')
			.map((line) => {
				try {
					const piece = JSON.parse(line) as { type?: string; content?: unknown };
					return piece.type === 'item' ? String(piece.content ?? '') : '';
				} catch {
					return line;
				}
			})
			.join('');
		return { result: await resultGiven(tool), shown };
	}

	return { viaChatHub, viaPublicChat };
}
