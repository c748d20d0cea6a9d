/**
 * The emulator's readers of the words the node writes to a model (helpers/output/protocolWords.ts):
 * built from those words, not copies of them, so that the scripted model cannot drift from what the
 * node sends. Only the emulator reads a conversation back; the node ships the writers alone.
 */
import {
	ARGUMENTS_LABEL,
	CORRECTION_OPENING,
	RESULT_OPENINGS,
	THE_TOOL,
} from '../../nodes/AgentPlatform/helpers/output/protocolWords';

/** Words as a regular expression that matches them literally. */
export const literal = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OPENING = `(?:${literal(RESULT_OPENINGS.result)}|${literal(RESULT_OPENINGS.error)}) ${literal(THE_TOOL)}`;
const RESULT_HEADING = new RegExp(`^${OPENING}(?: "([^"]*)")?:\\n`);
const TOOL_LINE = new RegExp(`^- ([^:\\n]+): .*\\n {2}${literal(ARGUMENTS_LABEL)} (.*)$`, 'gm');

/** Whether a user message asks for a corrected answer. */
export function isCorrection(text: string): boolean {
	return text.startsWith(CORRECTION_OPENING);
}

/** The tools a system message lists (toolLine's), each with its schema as written. */
export function toolLinesIn(instruction: string): Array<{ name: string; schema: string }> {
	return [...instruction.matchAll(TOOL_LINE)].map((match) => ({
		name: match[1],
		schema: match[2],
	}));
}

/**
 * The tools' results a user message carries (toolResultText's, one after another), each with its
 * tool's name where the message gives one; undefined when the message is not a tool's result.
 */
export function toolResultsIn(text: string): Array<{ tool?: string; result: string }> | undefined {
	if (!RESULT_HEADING.test(text)) return undefined;
	return text.split(new RegExp(`\\n*(?=${OPENING})`)).map((part) => ({
		tool: RESULT_HEADING.exec(part)?.[1],
		result: part.replace(RESULT_HEADING, '').trim(),
	}));
}
