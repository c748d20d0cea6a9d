/**
 * An answer streamed through the reader's StreamedText as the chat model streams it
 * (helpers/chatModel/streamedAnswer.ts): what was shown as the pieces came, and what the stream
 * holds once it ended.
 */
import {
	StreamedText,
	type BoundTool,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

export interface Streamed {
	/** Shown as the pieces came, in order. */
	asItCame: string;
	/** Shown once the stream ended. */
	atEnd: string;
	/** After each piece, how much had been shown. */
	progress: number[];
}

/**
 * `pieces` streamed: what was shown as they came, and what the chat holds at the end by the
 * stream's own account (what it showed, then its pending text: `pending()`), not completed
 * from the whole reading.
 */
export function streamedThrough(
	pieces: string[],
	tools: BoundTool[],
	reasoningUntil?: string,
): Streamed {
	const streamed = new StreamedText(tools, reasoningUntil);
	let asItCame = '';
	const progress: number[] = [];
	for (const piece of pieces) {
		asItCame += streamed.push(piece);
		progress.push(asItCame.length);
	}
	return { asItCame, atEnd: (asItCame + streamed.pending()).trim(), progress };
}

/** The reply in pieces of `size` characters, as a model streams it. */
export function chunks(reply: string, size: number): string[] {
	const pieces: string[] = [];
	for (let at = 0; at < reply.length; at += size) pieces.push(reply.slice(at, at + size));
	return pieces;
}
