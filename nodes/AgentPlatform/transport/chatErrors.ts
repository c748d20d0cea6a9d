/**
 * The error a chat shows. n8n's chats (the public chat and the chat hub through the stream's
 * error item, the editor's chat as "Error: …") print a failed node's error description alone,
 * while the editor's error panel shows the message as its title and the description below it. So
 * an error that can reach a chat gets its message at the start of its description, and any other
 * keeps a description that adds to the message (what to check, what the platform said).
 */
import type { PlatformContext } from './types';

/** The parts of n8n's contexts read here (every context has them at run time, n8n 1.x and 2.x). */
interface ChatView {
	getChatTrigger?: () => { disabled?: boolean } | null;
}

/**
 * Whether the workflow running this node has an enabled Chat Trigger, whose chats print the
 * node's error: the action node under it, or a chat model serving its AI Agent or chain (a
 * sub-node has no trigger among its own parents, so the workflow's is read).
 */
export function errorsReachAChat(ctx: PlatformContext): boolean {
	try {
		const trigger = (ctx as ChatView).getChatTrigger?.();
		return Boolean(trigger && !trigger.disabled);
	} catch {
		return false;
	}
}

/**
 * The error with its message at the start of its description when it can reach a chat (the
 * message holds the package's words, "The platform could not find agent 12"); otherwise as it is.
 */
export function readableInChat<T>(ctx: PlatformContext, error: T): T {
	if (!errorsReachAChat(ctx)) return error;
	const failure = error as { message?: unknown; description?: unknown } | undefined;
	if (!failure || typeof failure.message !== 'string' || !failure.message) return error;
	const description = typeof failure.description === 'string' ? failure.description : '';
	if (description.startsWith(failure.message)) return error;
	const sentence = /[.!?]$/.test(failure.message) ? failure.message : `${failure.message}.`;
	failure.description = description ? `${sentence} ${description}` : failure.message;
	return error;
}
