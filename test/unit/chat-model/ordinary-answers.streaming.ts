/**
 * An answer streamed through the reader's StreamedText as the chat model streams it
 * (helpers/chatModel/streamedAnswer.ts): what was shown as the pieces came, and what the chat holds
 * once the stream ended (what was shown, then the rest of the answer read whole).
 */
import {
	readToolsAnswer,
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

/** The answer's text as read whole: what the end of a stream completes. */
export function answerText(reply: string, tools: BoundTool[]): string {
	const read = readToolsAnswer(reply, tools);
	return read.kind === 'final' ? read.text : read.kind === 'calls' ? read.prose : '';
}

/**
 * `pieces` streamed; `text` the answer read whole. At the end the chat gets the rest of the
 * answer after what it was shown; where what it was shown is no start of the answer, the text the
 * stream kept back (`pending()`), as the chat model does (streamedAnswer.ts's `unshown` with no
 * correction).
 */
export function streamedThrough(
	pieces: string[],
	text: string,
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
	const rest = text.startsWith(asItCame) ? text.slice(asItCame.length) : streamed.pending();
	return { asItCame, atEnd: asItCame + rest, progress };
}

/** The reply in pieces of `size` characters, as a model streams it. */
export function chunks(reply: string, size: number): string[] {
	const pieces: string[] = [];
	for (let at = 0; at < reply.length; at += size) pieces.push(reply.slice(at, at + size));
	return pieces;
}

/**
 * Cut positions: all of them for a reply of up to 2,000 characters; spread over a longer one, 150
 * (40 beyond 8,000 characters, where the 20-character pieces are streamed too), so that the
 * unit project stays fast.
 */
export function cuts(length: number): number[] {
	if (length <= 2_000) return Array.from({ length: length - 1 }, (_, i) => i + 1);
	const count = length > 8_000 ? 40 : 150;
	return Array.from({ length: count }, (_, i) => 1 + Math.floor(((length - 2) * i) / (count - 1)));
}
