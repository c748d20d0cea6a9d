/**
 * Reads a model's answer for tool calls written the ways the model families and agent frameworks
 * write them (docs/chat-model.md, "Tool calls read"), one reader per group of formats; reasoning
 * is taken out first; arguments are checked and coerced against each tool's schema.
 */
import { checkedCall } from './arguments';
import { brokenJsonCall, finalAction, jsonCalls } from './jsonCalls';
import { NAMES_A_CALL, proseBefore } from './markers';
import { pythonCalls } from './pythonCalls';
import { reactCalls } from './reactCalls';
import { splitReasoning } from './reasoning';
import { tokenCalls } from './tokenCalls';
import type { BoundTool, CallReader, ToolCall, ToolsAnswer, WrittenCall } from './types';
import { xmlCalls, xmlFinalAnswer } from './xmlCalls';

export type { BoundTool, ToolCall, ToolsAnswer } from './types';
export { StreamedText } from './streamedText';

/** Marked formats first: where two readers find a call at one place, the wider one is meant. */
const READERS: CallReader[] = [tokenCalls, xmlCalls, reactCalls, pythonCalls, jsonCalls];

/** The calls written, in the text's order, none inside another. */
function writtenCalls(text: string, tools: BoundTool[]): WrittenCall[] {
	const found = READERS.flatMap((read) => read(text, tools)).sort(
		(a, b) => a.start - b.start || b.end - a.end,
	);
	const chosen: WrittenCall[] = [];
	for (const call of found) {
		const last = chosen[chosen.length - 1];
		if (!last || call.start >= last.end || (call.start === last.start && call.end === last.end))
			chosen.push(call);
	}
	return chosen;
}

function unreadable(text: string): string | undefined {
	const broken = brokenJsonCall(text);
	if (broken) return `it is not valid JSON: ${broken}`;
	if (NAMES_A_CALL.test(text)) return 'it names a tool call but holds no readable one';
	return undefined;
}

/** What the model's answer is: tool calls (with any prose before them), the final answer, or a broken call. */
export function readToolsAnswer(reply: string, tools: BoundTool[]): ToolsAnswer {
	const { reasoning, text } = splitReasoning(reply);
	const thought = reasoning ? { reasoning } : {};
	const found = writtenCalls(text, tools);
	// call-shaped JSON alone, naming no bound tool, is an answer in JSON
	const written = found.every((call) => call.weak) ? [] : found;
	if (!written.length) {
		const final = finalAction(text) ?? xmlFinalAnswer(text);
		if (final !== undefined) return { kind: 'final', text: final, ...thought };
		const problem = unreadable(text);
		return problem
			? { kind: 'malformed', problem, ...thought }
			: { kind: 'final', text, ...thought };
	}
	const calls: ToolCall[] = [];
	for (const call of written) {
		const checked = checkedCall(call, tools);
		if (typeof checked === 'string') return { kind: 'malformed', problem: checked, ...thought };
		calls.push(checked);
	}
	return { kind: 'calls', prose: proseBefore(text, written[0].start), calls, ...thought };
}
