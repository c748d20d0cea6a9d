/**
 * Tools for a model without function calling: the platform's chat-completions endpoint takes
 * `tools` only as the name of one of the agent's own tools. When n8n binds tools (an AI Agent with
 * tools connected), they are described to the platform's model in a system message, and its
 * answer is read back: the JSON shape below is a tool call, anything else is the final answer.
 * See docs/chat-model.md.
 */
import { extractJson, validateJson, type JsonSchema } from '../output/jsonValidation';

/** Starts the instruction; the emulator's scripted model recognises the protocol by it. */
export const TOOLS_PROTOCOL_MARK = 'Tools protocol 1 of the Agent Platform Chat Model for n8n.';

export interface BoundTool {
	name: string;
	description: string;
	schema: JsonSchema;
}

export interface ToolCallAnswer {
	kind: 'call';
	name: string;
	arguments: Record<string, unknown>;
}

export type ToolsAnswer =
	ToolCallAnswer | { kind: 'final'; text: string } | { kind: 'malformed'; problem: string };

const SHAPE = '{"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}';

/** The system message that describes the tools and the answer's shape. */
export function toolsInstruction(tools: BoundTool[]): string {
	return [
		TOOLS_PROTOCOL_MARK,
		'You can call the tools listed below. To call one, answer with only this JSON, nothing before or after it:',
		SHAPE,
		'Call one tool per answer; its result comes back in the next message. When you can answer without a tool, answer in plain text, not JSON.',
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

/** What the model's answer is: a tool call, the final answer, or a broken attempt at a call. */
export function readToolsAnswer(text: string, tools: BoundTool[]): ToolsAnswer {
	const trimmed = text.trim();
	const looksLikeJson = /^(\{|```)/.test(trimmed) || trimmed.includes('"tool_call"');
	if (!looksLikeJson) return { kind: 'final', text };
	const extracted = extractJson(trimmed);
	if (!extracted.ok) return { kind: 'malformed', problem: extracted.problem };
	const value = extracted.value as Record<string, unknown> | null;
	const call = value && typeof value === 'object' ? value.tool_call : undefined;
	// JSON that is no tool call is an answer in JSON (a chain may have asked for one)
	if (call === undefined) return { kind: 'final', text };
	if (!call || typeof call !== 'object' || Array.isArray(call))
		return {
			kind: 'malformed',
			problem: '"tool_call" must be an object with "name" and "arguments"',
		};
	const { name, arguments: args = {} } = call as Record<string, unknown>;
	const names = tools.map((tool) => `"${tool.name}"`).join(', ');
	const tool = tools.find((t) => t.name === name);
	if (!tool) {
		return {
			kind: 'malformed',
			problem: `there is no tool ${JSON.stringify(name ?? null)}; the tools are ${names}`,
		};
	}
	if (!args || typeof args !== 'object' || Array.isArray(args))
		return { kind: 'malformed', problem: `the arguments of "${tool.name}" must be a JSON object` };
	const checked = validateJson(args, tool.schema);
	if (checked.problems.length) {
		return {
			kind: 'malformed',
			problem: `the arguments of "${tool.name}" do not match its schema: ${checked.problems.join('; ')}`,
		};
	}
	return { kind: 'call', name: tool.name, arguments: checked.value as Record<string, unknown> };
}

/** The one correction round's request: what was wrong, and the shape again. */
export function toolsCorrection(problem: string, tools: BoundTool[]): string {
	return (
		`Your previous answer cannot be used: ${problem}. ` +
		`To call a tool, answer with only ${SHAPE}, naming one of ${tools.map((t) => `"${t.name}"`).join(', ')}. ` +
		'To give the final answer, write plain text.'
	);
}
