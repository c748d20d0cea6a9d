/**
 * The words the node writes to the platform's model in its two conversations with rules, each in
 * one place: the chat model's tools protocol (helpers/chatModel/toolsProtocol.ts) and structured
 * output's corrections (structuredOutput.ts). Whoever reads the conversation back builds on these
 * words rather than copies of them: the emulator's readers (dev/emulator/protocolReaders.ts).
 */

/** Starts the tools protocol's system message, so that a platform (or a test double of one) can tell it apart. */
export const TOOLS_PROTOCOL_MARK = 'Tools protocol 1 of the Agent Platform Chat Model for n8n.';

/** Opens every request for a corrected answer: the tools protocol's and structured output's. */
export const CORRECTION_OPENING = 'Your previous answer cannot be used';

/** Opens the instruction of a forced tool choice (withStructuredOutput), then the tool's name. */
export const TOOL_CHOICE_OPENING = 'You must call the tool';

/** Labels a described tool's arguments in the tools protocol's system message. */
export const ARGUMENTS_LABEL = 'arguments (JSON Schema):';

/** A tool's result message opens with one of these (a result, an error), then the tool. */
export const RESULT_OPENINGS = { result: 'Result of', error: 'Error from' };
export const THE_TOOL = 'the tool';

/** One tool, as the tools protocol's system message lists it. */
export function toolLine(tool: { name: string; description: string; schema: unknown }): string {
	return `- ${tool.name}: ${tool.description || 'no description'}\n  ${ARGUMENTS_LABEL} ${JSON.stringify(tool.schema)}`;
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
