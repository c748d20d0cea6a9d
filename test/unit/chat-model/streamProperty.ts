/**
 * The stream's property (issue 56): fed a reply a character at a time and in a few random
 * chunkings, what the chat is shown is, at every piece, the start of what the whole reading says
 * the chat holds (the final answer, or the prose before the calls; after an attempt at a call,
 * the correction follows it); and at the end, what was shown plus the stream's own pending text
 * is that text, for a final answer; before calls, all their prose was shown. Linear per reply: one
 * stream per feeding, never one per cut.
 */
import {
	readToolsAnswer,
	StreamedText,
	type BoundTool,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { prng } from '../fuzz/seed';
import { closingAlone } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/reasoning';

/** Pieces of 1 to 12 characters, from a seeded generator (../fuzz/seed.ts): the same every run. */
export function randomPieces(text: string, seed: number): string[] {
	const { int } = prng(seed);
	const pieces: string[] = [];
	for (let at = 0; at < text.length;) {
		const size = int(1, 12);
		pieces.push(text.slice(at, at + size));
		at += size;
	}
	return pieces;
}

/** Character by character, then three random chunkings. */
export const feedings = (reply: string): string[][] => [
	[...reply],
	...[1, 2, 3].map((seed) => randomPieces(reply, seed * 7919 + reply.length)),
];

/**
 * What went wrong streaming `reply` in these pieces, or undefined: the stream decides as the whole
 * reading does. A prompt that opens reasoning (only `</think>` comes) is known to the stream, as
 * the chat model learns it from the agent's replies.
 */
export function streamProblem(
	reply: string,
	tools: BoundTool[],
	pieces: string[],
	answer?: string,
) {
	const read = readToolsAnswer(reply, tools);
	// the case's own expected answer, where it has one, before the whole reading's
	if (answer !== undefined && (read.kind !== 'final' || read.text !== answer))
		return `read whole as ${JSON.stringify(read).slice(0, 120)}, not the answer`;
	// an attempt at a call: the correction's answer follows whatever was shown
	if (read.kind === 'malformed') return undefined;
	const chat = read.kind === 'final' ? read.text : read.prose;
	const stream = new StreamedText(tools, closingAlone(reply));
	let shown = '';
	let sent = 0;
	for (const piece of pieces) {
		const delta = stream.push(piece);
		sent += piece.length;
		// only the new text is compared, where it stands: linear in the reply
		const right = chat.startsWith(delta, shown.length);
		shown += delta;
		if (!right)
			return `after ${sent} of ${reply.length} characters it showed ${JSON.stringify(shown.slice(-60))}, not the start of ${JSON.stringify(chat.slice(0, 60))}`;
	}
	// the prose before calls is all shown by the end: only the calls are held
	if (read.kind === 'calls' && shown.trim() !== chat)
		return `at the end it had shown ${JSON.stringify(shown.slice(-60))} of the prose ${JSON.stringify(chat.slice(-60))}`;
	// a family's own wrapper of the answer (`<final_answer>`) is held whole and read at the end
	const unwrapped = !shown && chat !== reply.trim();
	if (read.kind === 'final' && !unwrapped && (shown + stream.pending()).trim() !== chat)
		return `at the end it held ${JSON.stringify((shown + stream.pending()).slice(-60))} for ${JSON.stringify(chat.slice(-60))}`;
	return undefined;
}

/** Every feeding of every reply; the failures, each naming its case. */
export function streamProblems(
	cases: Array<{ name: string; reply: string; tools: BoundTool[]; answer?: string }>,
) {
	const problems: string[] = [];
	for (const { name, reply, tools, answer } of cases)
		for (const [index, pieces] of feedings(reply).entries()) {
			const problem = streamProblem(reply, tools, pieces, answer);
			if (problem) {
				problems.push(
					`${name} (${index ? `chunking ${index}` : 'a character at a time'}): ${problem}`,
				);
				break;
			}
		}
	return problems;
}
