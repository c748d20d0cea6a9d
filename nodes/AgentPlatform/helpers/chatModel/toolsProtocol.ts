/**
 * Tools for a model without function calling: the platform's chat-completions endpoint takes
 * `tools` only as the name of one of the agent's own tools. When n8n binds tools (an AI Agent with
 * tools connected), they are described to the platform's model in a system message; its answer is
 * read back by toolCallReader.ts. See docs/chat-model.md.
 */
import type { BoundTool } from './toolCallReader';

export type { BoundTool } from './toolCallReader';

/** Starts the instruction, so that a platform (or a test double of one) can tell it apart. */
export const TOOLS_PROTOCOL_MARK = 'Tools protocol 1 of the Agent Platform Chat Model for n8n.';

const SHAPE = '{"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}';

/** The system message that describes the tools and the answer's shape. */
export function toolsInstruction(tools: BoundTool[]): string {
	return [
		TOOLS_PROTOCOL_MARK,
		'You can call the tools listed below. To call one, answer with only this JSON, nothing before or after it:',
		SHAPE,
		'To call several tools at once, write one such JSON object per call, one after another. The results come back in the next message. When you can answer without a tool, answer in plain text, not JSON.',
		'Tools:',
		...tools.map(
			(tool) =>
				`- ${tool.name}: ${tool.description || 'no description'}\n  arguments (JSON Schema): ${JSON.stringify(tool.schema)}`,
		),
	].join('\n');
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
	const tool = name ? `the tool "${name}"` : 'the tool';
	return `${isError ? 'Error from' : 'Result of'} ${tool}:\n${result}`;
}

/** The one correction round's request: what was wrong, and the shape again. */
export function toolsCorrection(problem: string, tools: BoundTool[]): string {
	return (
		`Your previous answer cannot be used: ${problem}. ` +
		`To call a tool, answer with only ${SHAPE}, naming one of ${tools.map((t) => `"${t.name}"`).join(', ')}. ` +
		'To give the final answer, write plain text.'
	);
}
