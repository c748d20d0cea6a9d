/**
 * The agent's OpenAI-compatible chat-completions endpoint, as Agent → Chat Completion and the
 * Agent Platform Chat Model read it: its path, and the first choice of an answer or a stream chunk.
 */
import type { IDataObject } from 'n8n-workflow';

export function chatCompletionsPath(agentId: string): string {
	return `/agents/${agentId}/openai/chat/completions`;
}

/** The first of `choices` of a chat.completion or a chunk; an empty object when there is none. */
export function firstChoice(record: IDataObject): IDataObject {
	return ((record.choices as IDataObject[] | undefined) ?? [])[0] ?? {};
}

/** The answer's text: the first choice's message content, as text. */
export function completionText(completion: IDataObject): string {
	return String((firstChoice(completion).message as IDataObject | undefined)?.content ?? '');
}
