/**
 * n8n's chat messages (the AI SDK's Message) as the platform's chat-completions endpoint takes
 * them: roles system, user and assistant only, text only. Tool calls are written back in the
 * tools protocol's shape and tool results become user messages; the system messages (and the tools
 * instruction) go first, as one; messages of one role in a row are joined.
 */
import { textOf } from '../agents/messages';
import type { Message, MessageContent } from './aiNodeSdk';
import { toolCallText, toolResultText } from '../output/protocolWords';
import { toolsInstruction, type BoundTool } from './toolsProtocol';

export interface PlatformMessage {
	role: 'system' | 'user' | 'assistant';
	content: string;
}

/** A tool's result as text: its text, else its JSON. */
function resultText(value: unknown): string {
	const text = textOf(value);
	if (text || value === undefined || value === null) return text;
	return JSON.stringify(value);
}

/**
 * The arguments of a call that waited for a person's approval, as the model wrote them. A tool
 * behind n8n's human review (a "… HitlTool" node such as the Chat node's approval) is bound with
 * the arguments {toolParameters, hitlParameters}; once approved, n8n's AI Agent writes the call
 * back flattened, with the tool's name ({tool, ...toolParameters}: n8n-nodes-langchain's
 * processHitlResponses). Written back in the shape the tool asks for, so that the model does not
 * copy a shape its tool refuses.
 */
function asWritten(args: unknown, toolName: string, tools: BoundTool[]): unknown {
	const properties = tools.find((tool) => tool.name === toolName)?.schema.properties;
	const gated =
		typeof properties === 'object' && properties !== null && 'toolParameters' in properties;
	if (!gated || typeof args !== 'object' || args === null || Array.isArray(args)) return args;
	const { tool, ...toolParameters } = args as Record<string, unknown>;
	if (tool !== toolName || 'toolParameters' in toolParameters) return args;
	return { toolParameters };
}

function partsText(
	parts: MessageContent[],
	toolNames: Map<string, string>,
	tools: BoundTool[],
): string {
	const texts: string[] = [];
	for (const part of parts) {
		if (part.type === 'text') texts.push(String(part.text ?? ''));
		else if (part.type === 'tool-call') {
			const call = part as Extract<MessageContent, { type: 'tool-call' }>;
			if (call.toolCallId) toolNames.set(call.toolCallId, call.toolName);
			let args: unknown = {};
			try {
				args = JSON.parse(call.input || '{}');
			} catch {
				args = call.input;
			}
			// n8n's AI Agent writes the call's id into its arguments: not what the model wrote
			if (args && typeof args === 'object' && (args as { id?: unknown }).id === call.toolCallId)
				delete (args as { id?: unknown }).id;
			texts.push(toolCallText(call.toolName, asWritten(args, call.toolName, tools)));
		} else if (part.type === 'tool-result') {
			const result = part as Extract<MessageContent, { type: 'tool-result' }>;
			texts.push(
				toolResultText(toolNames.get(result.toolCallId), resultText(result.result), result.isError),
			);
		}
		// reasoning, files and provider blocks: the endpoint takes text only
	}
	return texts.filter(Boolean).join('\n');
}

export function toPlatformMessages(messages: Message[], tools: BoundTool[]): PlatformMessage[] {
	const toolNames = new Map<string, string>();
	const system: string[] = [];
	const conversation: PlatformMessage[] = [];
	for (const message of messages) {
		const text = partsText(message.content, toolNames, tools);
		if (message.role === 'system') {
			if (text) system.push(text);
			continue;
		}
		const role = message.role === 'assistant' ? 'assistant' : 'user';
		const last = conversation[conversation.length - 1];
		if (last?.role === role) last.content = [last.content, text].filter(Boolean).join('\n\n');
		else conversation.push({ role, content: text });
	}
	if (tools.length) system.push(toolsInstruction(tools));
	return [
		...(system.length ? [{ role: 'system' as const, content: system.join('\n\n') }] : []),
		...conversation,
	];
}
