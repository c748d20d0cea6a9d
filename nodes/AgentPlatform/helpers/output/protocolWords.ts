/**
 * The words the node writes to the platform's model in its two conversations with rules, each in
 * one place: the chat model's tools protocol (helpers/chatModel/toolsProtocol.ts) and structured
 * output's corrections (structuredOutput.ts). Beside each writer is its reader, for whoever reads
 * the conversation back: the emulator's scripted model imports them instead of matching copies.
 */

/** Starts the tools protocol's system message, so that a platform (or a test double of one) can tell it apart. */
export const TOOLS_PROTOCOL_MARK = 'Tools protocol 1 of the Agent Platform Chat Model for n8n.';

/** Opens every request for a corrected answer: the tools protocol's and structured output's. */
export const CORRECTION_OPENING = 'Your previous answer cannot be used';

/** Opens the instruction of a forced tool choice (withStructuredOutput), then the tool's name. */
export const TOOL_CHOICE_OPENING = 'You must call the tool';
const TOOL_CHOICE = new RegExp(`${TOOL_CHOICE_OPENING} "([^"]+)"`);

/** The tool a system message says must be called (toolChoiceInstruction's), if any. */
export function toolChoiceIn(instruction: string): string | undefined {
	return TOOL_CHOICE.exec(instruction)?.[1];
}

/** Labels a described tool's arguments in the tools protocol's system message. */
const ARGUMENTS_LABEL = 'arguments (JSON Schema):';

/** A tool's result message opens with one of these (a result, an error), then the tool. */
const RESULT_OPENINGS = { result: 'Result of', error: 'Error from' };
const THE_TOOL = 'the tool';

const literal = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OPENING = `(?:${literal(RESULT_OPENINGS.result)}|${literal(RESULT_OPENINGS.error)}) ${literal(THE_TOOL)}`;
const RESULT_HEADING = new RegExp(`^${OPENING}(?: "([^"]*)")?:\\n`);
const TOOL_LINE = new RegExp(`^- ([^:\\n]+): .*\\n {2}${literal(ARGUMENTS_LABEL)} (.*)$`, 'gm');

/** Whether a user message asks for a corrected answer. */
export function isCorrection(text: string): boolean {
	return text.startsWith(CORRECTION_OPENING);
}

/** One tool, as the tools protocol's system message lists it. */
export function toolLine(tool: { name: string; description: string; schema: unknown }): string {
	return `- ${tool.name}: ${tool.description || 'no description'}\n  ${ARGUMENTS_LABEL} ${JSON.stringify(tool.schema)}`;
}

/** The tools a system message lists (toolLine's), each with its schema as written. */
export function toolLinesIn(instruction: string): Array<{ name: string; schema: string }> {
	return [...instruction.matchAll(TOOL_LINE)].map((match) => ({
		name: match[1],
		schema: match[2],
	}));
}

/** An earlier tool call of the conversation, written back in the shape the model was asked for. */
export function toolCallText(name: string, args: unknown): string {
	return JSON.stringify({ tool_call: { name, arguments: args ?? {} } });
}

/** A tool's result, as the user message that follows the call. */
export function toolResultText(
	name: string | undefined,
	result: string,
	isError?: boolean,
): string {
	const tool = name ? `${THE_TOOL} "${name}"` : THE_TOOL;
	return `${isError ? RESULT_OPENINGS.error : RESULT_OPENINGS.result} ${tool}:\n${result}`;
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
