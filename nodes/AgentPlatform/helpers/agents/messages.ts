/**
 * The chat input of an item (History (JSON), History, Message), checked, and shaped as each
 * endpoint takes it. Chat Completion takes `system`, `user`, `assistant`. Execute refuses
 * `system`, takes `developer` only as the first message and wants `user` and `assistant` to
 * alternate (docs/platform-assumptions.md), so its conversation is normalised here.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { inItem } from '../input/parameters';

export interface ChatMessage {
	role: string;
	content: string;
}

/**
 * A message content's text, in every shape it comes in (n8n's, LangChain's, the SDK's, the
 * platform's): a string, a text part, or a list of them, their texts joined. Anything else has none.
 */
export function textOf(content: unknown, separator = '\n'): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content
			.map((part) => textOf(part, separator))
			.filter(Boolean)
			.join(separator);
	const text = (content as { text?: unknown } | null | undefined)?.text;
	return typeof text === 'string' ? text : '';
}

/** Roles a user may give to Execute; `system` is sent as `developer`. */
export const EXECUTE_ROLES = ['developer', 'system', 'user', 'assistant'];
export const CHAT_COMPLETION_ROLES = ['system', 'user', 'assistant'];
const INSTRUCTION_ROLES = ['system', 'developer'];
/** Execute's Message Source (node version 1.2): the chatInput field a Chat Trigger sends. */
export const MESSAGE_FROM_CHAT = 'chatTrigger';
/** Execute's Message Source (node version 1.4): the chatInput field where the item has one, else Message. */
export const MESSAGE_FROM_CHAT_OR_BELOW = 'chatOrBelow';
/** What joins two turns of one role that Execute receives as one. */
export const TURN_SEPARATOR = '\n\n';

function fail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): never {
	throw new NodeOperationError(ctx.getNode(), inItem(message, itemIndex), {
		itemIndex,
		description,
	});
}

/** Checks a chat history: an array of { role, content } with known roles and text content. */
export function checkMessages(
	ctx: IExecuteFunctions,
	messages: unknown,
	roles: string[],
	itemIndex: number,
	parameter: string,
): ChatMessage[] {
	const example = 'Give an array like [{"role": "user", "content": "Hello"}]';
	let list = messages;
	if (typeof list === 'string') {
		const text = list.trim();
		if (!text) return [];
		try {
			list = JSON.parse(text);
		} catch {
			fail(ctx, itemIndex, `${parameter} is not valid JSON`, example);
		}
	}
	if (list === undefined || list === null) return [];
	if (!Array.isArray(list))
		fail(ctx, itemIndex, `${parameter} must be an array of messages`, example);
	return list.map((message, position) => {
		const role = String((message as IDataObject)?.role ?? '');
		const content = (message as IDataObject)?.content;
		if (!roles.includes(role)) {
			fail(
				ctx,
				itemIndex,
				`Message ${position + 1} of ${parameter} has the role "${role}"`,
				`Use one of: ${roles.join(', ')}`,
			);
		}
		if (typeof content !== 'string') {
			fail(ctx, itemIndex, `Message ${position + 1} of ${parameter} has no text content`);
		}
		return { role, content };
	});
}

/**
 * The chat input of an item: History (JSON), then the History entered message by message, then
 * the Message as the user's last turn; every role and content checked. `chatMessageRequired`
 * false: a chat message that is not there is left out instead of failing (Execute, before it knows
 * whether the agent takes messages; requireChatMessage fails for a chat agent).
 */
export function readChatMessages(
	ctx: IExecuteFunctions,
	itemIndex: number,
	roles: string[],
	attachedFiles: string[] = [],
	{ chatMessageRequired = true }: { chatMessageRequired?: boolean } = {},
): ChatMessage[] {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const history = checkMessages(
		ctx,
		[
			...checkMessages(ctx, options.historyJson, roles, itemIndex, 'History (JSON)'),
			...((ctx.getNodeParameter('history.messages', itemIndex, []) as IDataObject[]) ?? []),
		],
		roles,
		itemIndex,
		'History',
	);
	const message =
		chatMessageRequired || hasChatMessage(ctx, itemIndex, attachedFiles)
			? userMessage(ctx, itemIndex, attachedFiles)
			: '';
	return message ? [...history, { role: 'user', content: message }] : history;
}

/**
 * Whether the user message can be read without an error: Execute reads it before it knows the
 * agent, and only a chat agent needs it (a text, image or video agent is sent none).
 */
function hasChatMessage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	attachedFiles: string[],
): boolean {
	if (messageSourceOf(ctx, itemIndex) !== MESSAGE_FROM_CHAT) return true;
	const chatInput = ctx.getInputData()[itemIndex]?.json?.chatInput;
	return typeof chatInput === 'string' && (chatInput.trim() !== '' || attachedFiles.length > 0);
}

/**
 * Where the message comes from for this item: "Chat Message, Else Message Below" (node version
 * 1.4) is the chat's where the item has a chatInput field, else Define Below. Where Message Source
 * is hidden (Chat Completion, versions before 1.2, tool mode), Define Below.
 */
export function messageSourceOf(ctx: IExecuteFunctions, itemIndex: number): string {
	const source = ctx.getNodeParameter('messageSource', itemIndex, 'define') as string;
	if (source !== MESSAGE_FROM_CHAT_OR_BELOW) return source;
	const chatInput = ctx.getInputData()[itemIndex]?.json?.chatInput;
	return typeof chatInput === 'string' ? MESSAGE_FROM_CHAT : 'define';
}

/** Fails as reading a chat agent's missing chat message does (see readChatMessages). */
export function requireChatMessage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	attachedFiles: string[],
): void {
	userMessage(ctx, itemIndex, attachedFiles);
}

/**
 * What is sent for a chat message that has files but no text (n8n's chat lets a person send only
 * a file; n8n's AI Agent then passes an empty text with it): a short, neutral line naming the
 * attached files, since the platform takes no empty message.
 */
function filesOnlyMessage(fileNames: string[]): string {
	return `${fileNames.length === 1 ? 'Attached file' : 'Attached files'}: ${fileNames.join(', ')}`;
}

/**
 * The user's message: typed in Message, or (Execute from node version 1.2, Message Source left on
 * the chat) the chatInput field of the item, as n8n's Chat Trigger sends it; a chat message with
 * attached files and no text is sent as filesOnlyMessage. Where the source is hidden (Chat
 * Completion, older versions, tool mode) the Message is read.
 */
function userMessage(ctx: IExecuteFunctions, itemIndex: number, attachedFiles: string[]): string {
	if (messageSourceOf(ctx, itemIndex) !== MESSAGE_FROM_CHAT)
		return String(ctx.getNodeParameter('message', itemIndex, '') ?? '').trim();
	const item = ctx.getInputData()[itemIndex];
	const chatInput = item?.json?.chatInput;
	if (typeof chatInput === 'string' && chatInput.trim()) return chatInput.trim();
	if (typeof chatInput === 'string' && attachedFiles.length) return filesOnlyMessage(attachedFiles);
	if (typeof chatInput === 'string' && Object.keys(item?.binary ?? {}).length) {
		fail(
			ctx,
			itemIndex,
			'No chat message to send: the chat message has a file but no text, and no file is attached',
			"Under a Chat Trigger, a node of version 1.3 or later attaches the chat's files (Options → Attach Chat Files on); on an older node, set Options → Attach Input Binaries to the file's field (data0 for the chat's first file).",
		);
	}
	fail(
		ctx,
		itemIndex,
		typeof chatInput === 'string'
			? 'No chat message to send: the chat message is empty'
			: 'No chat message to send: Message Source is "Connected Chat Trigger Node", and the item has no chatInput field',
		'Connect a Chat Trigger in front of this node, or set Message Source to "Define Below" and type or map the message there.',
	);
}

/**
 * The conversation as Execute takes it:
 * - system and developer messages at the start become one leading `developer` message;
 * - two or more turns of one role in a row become one turn, their texts joined by a blank line
 *   (a History ending with a user turn plus the Message is the common case);
 * - a system or developer message after the conversation began is refused, naming its number
 *   (counted over History (JSON), History and Message, in that order).
 */
export function toExecuteMessages(
	ctx: IExecuteFunctions,
	messages: ChatMessage[],
	itemIndex: number,
): ChatMessage[] {
	const out: ChatMessage[] = [];
	messages.forEach((message, position) => {
		const instruction = INSTRUCTION_ROLES.includes(message.role);
		const role = instruction ? 'developer' : message.role;
		if (instruction && out.some((turn) => turn.role !== 'developer')) {
			fail(
				ctx,
				itemIndex,
				`Message ${position + 1} is a ${message.role} message after the conversation began: the platform takes instructions only as the first message`,
				'Messages are counted over History (JSON), History and Message, in that order. Move the instructions to the start (several at the start are joined into one).',
			);
		}
		const last = out[out.length - 1];
		if (last?.role === role) last.content = `${last.content}${TURN_SEPARATOR}${message.content}`;
		else out.push({ role, content: message.content });
	});
	return out;
}
