/**
 * Where n8n's users chat, driven as those surfaces drive n8n, and what each shows of an answer or
 * a failure:
 * - the public chat (the Chat Trigger's own URL, streaming): its JSON lines; an `error` line's
 *   content is what the chat prints;
 * - the chat hub (n8n 2.x, Settings → Chat): a published workflow whose Chat Trigger is
 *   "available in chat", sent a message through the hub's REST API (`POST
 *   /rest/chat/conversations/send`, as the hub's page does); the AI message it keeps is what the
 *   hub shows (`GET /rest/chat/conversations/:sessionId`);
 * - the editor's chat: it prints "Error: " and the failed node's error description, read here
 *   from the execution n8n saved.
 * Chat workflows are built here: a Chat Trigger (public, available in chat, streaming, files
 * allowed) in front of the nodes a test gives.
 */
import { randomUUID } from 'node:crypto';

import { sleep, type N8nInstance, type WorkflowFixture } from '../../dev/n8n/harness';
import { sendChatMessage } from './chatMemory.shared';

type Node = WorkflowFixture['nodes'][number];

const TRIGGER = 'When chat message received';

/** A workflow: the chat's trigger → `root` (fed by its sub-nodes, each on its connection type). */
export function chatWorkflow(
	id: string,
	webhookId: string,
	root: Node,
	subNodes: Array<{ node: Node; type: string }> = [],
): WorkflowFixture {
	const trigger: Node = {
		id: randomUUID(),
		name: TRIGGER,
		type: '@n8n/n8n-nodes-langchain.chatTrigger',
		typeVersion: 1.4,
		position: [0, 0],
		webhookId,
		parameters: {
			public: true,
			availableInChat: true,
			options: { responseMode: 'streaming', allowFileUploads: true },
		},
	};
	const connections: Record<string, unknown> = {
		[TRIGGER]: { main: [[{ node: root.name, type: 'main', index: 0 }]] },
	};
	for (const { node, type } of subNodes)
		connections[node.name] = { [type]: [[{ node: root.name, type, index: 0 }]] };
	return {
		id,
		name: `Chat failures: ${id}`,
		nodes: [trigger, root, ...subNodes.map((s) => s.node)],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** A workflow outside any chat: a Webhook (answering when the run ends) at `path` → `root`. */
export function webhookWorkflow(
	id: string,
	path: string,
	webhookId: string,
	root: Node,
): WorkflowFixture {
	const trigger: Node = {
		...node('Webhook', 'n8n-nodes-base.webhook', 2, {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
		}),
		webhookId,
		position: [0, 0],
	};
	return {
		id,
		name: `Outside a chat: ${id}`,
		nodes: [trigger, root],
		connections: { Webhook: { main: [[{ node: root.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** A node with a fresh id at a place of its own. */
export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	credentials?: Record<string, { id: string; name: string }>,
): Node {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [240, 0],
		parameters,
		...(credentials ? { credentials } : {}),
	};
}

export interface ChatShown {
	/** The answer's text (the `item` lines, or the hub's message). */
	text: string;
	/** What the chat prints for a failure (the `error` lines' content, or the hub's failed message). */
	error: string;
}

/** One message to the public chat (streaming), with files as n8n's chat sends them (multipart). */
export async function publicChat(
	n8n: N8nInstance,
	webhookId: string,
	chatInput: string,
	files: Array<{ name: string; text: string }> = [],
): Promise<ChatShown> {
	const url = `${n8n.baseUrl}/webhook/${webhookId}/chat`;
	const answer = await sendChatMessage(url, randomUUID(), chatInput, files);
	const lines = answer.text
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => {
			try {
				return JSON.parse(line) as { type?: string; content?: unknown };
			} catch {
				return { type: 'text', content: line };
			}
		});
	const of = (type: string) =>
		lines
			.filter((line) => line.type === type)
			.map((line) => String(line.content ?? ''))
			.join('');
	return { text: of('item'), error: of('error') || (answer.status < 400 ? '' : answer.text) };
}

interface HubMessage {
	type: string;
	status: string;
	content: unknown;
}

/** Turns n8n's chat hub on (Settings → Chat: off on a new n8n). */
export async function enableChatHub(n8n: N8nInstance): Promise<void> {
	await n8n.rest('PUT', '/chat/enabled', { enabled: true });
}

/** One message to a published workflow in n8n's chat hub; what the hub keeps of its answer. */
export async function chatHub(
	n8n: N8nInstance,
	workflowId: string,
	message: string,
): Promise<ChatShown> {
	const sessionId = randomUUID();
	await n8n.rest('POST', '/chat/conversations/send', {
		messageId: randomUUID(),
		sessionId,
		message,
		model: { provider: 'n8n', workflowId },
		previousMessageId: null,
		credentials: {},
		attachments: [],
		timeZone: 'UTC',
	});
	const deadline = Date.now() + 120_000;
	for (;;) {
		const { conversation } = await n8n.rest<{
			conversation: { messages: Record<string, HubMessage> };
		}>('GET', `/chat/conversations/${sessionId}`);
		const answers = Object.values(conversation.messages).filter((m) => m.type === 'ai');
		const done = answers.find((m) => m.status !== 'running' && m.status !== 'waiting');
		if (done) {
			// the hub keeps a message as blocks ([{ type: 'text', content }]) and shows their text
			const content = Array.isArray(done.content)
				? done.content.map((block: { content?: unknown }) => String(block?.content ?? '')).join('')
				: String(done.content);
			return done.status === 'error' ? { text: '', error: content } : { text: content, error: '' };
		}
		if (Date.now() > deadline)
			throw new Error(`the chat hub did not answer: ${JSON.stringify(answers)}`);
		await sleep(300);
	}
}

/** The id of a workflow's newest execution (0 when it has none), read before a message is sent. */
export async function lastExecutionId(n8n: N8nInstance, workflowId: string): Promise<number> {
	const [newest] = await n8n.getExecutions(workflowId, { includeData: false, limit: 1 });
	return newest ? Number(newest.id) : 0;
}

/** What the editor shows of a failed node: its error panel's title (the message) and details. */
export interface EditorError {
	/** What the editor's chat prints: "Error: <description>". */
	chat: string;
	/** The error panel's title. */
	message: string;
	/** The error panel's details, below the title. */
	description: string;
}

/**
 * What the editor shows for the failed execution that followed `after` (lastExecutionId before
 * the message): the one a test's own message started, not another test's of the same workflow.
 */
export async function editorError(
	n8n: N8nInstance,
	workflowId: string,
	after: number,
): Promise<EditorError> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const executions = await n8n.getExecutions(workflowId, { status: 'error', limit: 5 });
		const own = executions.find((execution) => Number(execution.id) > after);
		if (own) {
			const result = (
				own.data as { resultData?: { error?: { description?: string | null; message?: string } } }
			)?.resultData;
			const { message = '', description } = result?.error ?? {};
			return { chat: `Error: ${description ?? message}`, message, description: description ?? '' };
		}
		if (Date.now() > deadline)
			throw new Error(`no failed execution of workflow ${workflowId} after execution ${after}`);
		await sleep(200);
	}
}
