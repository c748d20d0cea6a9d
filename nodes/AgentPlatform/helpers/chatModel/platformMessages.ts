/**
 * n8n's chat messages (the AI SDK's Message) as the platform's chat-completions endpoint takes
 * them: roles system, user and assistant only, text only. Tool calls are written back in the
 * tools protocol's shape and tool results become user messages; the system messages (and the tools
 * instruction) go first, as one; messages of one role in a row are joined.
 */
import type { Message, MessageContent } from './aiNodeSdk';
import { toolCallText, toolResultText } from '../output/protocolWords';
import { toolsInstruction, type BoundTool } from './toolsProtocol';

export interface PlatformMessage {
	role: 'system' | 'user' | 'assistant';
	content: string;
}

function textOf(value: unknown): string {
	if (typeof value === 'string') return value;
	if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join('\n');
	if (value && typeof value === 'object') {
		const block = value as { type?: unknown; text?: unknown };
		if (block.type === 'text' && typeof block.text === 'string') return block.text;
	}
	return value === undefined || value === null ? '' : JSON.stringify(value);
}

function partsText(parts: MessageContent[], toolNames: Map<string, string>): string {
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
			texts.push(toolCallText(call.toolName, args));
		} else if (part.type === 'tool-result') {
			const result = part as Extract<MessageContent, { type: 'tool-result' }>;
			texts.push(
				toolResultText(toolNames.get(result.toolCallId), textOf(result.result), result.isError),
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
		const text = partsText(message.content, toolNames);
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
