/**
 * Tools for a model without function calling: the platform's chat-completions endpoint takes
 * `tools` only as the name of one of the agent's own tools. When n8n binds tools (an AI Agent with
 * tools connected), they are described to the platform's model in a system message; its answer is
 * read back by toolCallReader.ts. See docs/chat-model.md.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext } from '../../transport/types';
import {
	CORRECTION_OPENING,
	TOOL_CHOICE_OPENING,
	TOOLS_PROTOCOL_MARK,
	toolLine,
} from '../output/protocolWords';
import type { Message } from './aiNodeSdk';
import type { BoundTool } from './toolCallReader';

export type { BoundTool } from './toolCallReader';

const SHAPE = '{"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}';

/** The system message that describes the tools and the answer's shape. */
export function toolsInstruction(tools: BoundTool[]): string {
	return [
		TOOLS_PROTOCOL_MARK,
		'You can call the tools listed below. To call one, answer with only this JSON, nothing before or after it:',
		SHAPE,
		'To call several tools at once, write one such JSON object per call, one after another. The results come back in the next message. When you can answer without a tool, answer in plain text, not JSON.',
		'Tools:',
		...tools.map(toolLine),
	].join('\n');
}

/** A forced tool choice (structured output): the answer must be a call of that tool. */
export function toolChoiceInstruction(name: string): string {
	return `${TOOL_CHOICE_OPENING} "${name}" now: answer with only ${SHAPE} naming "${name}", its arguments filled in from the conversation. Do not answer in plain text.`;
}

/**
 * A forced tool choice (LangChain's withStructuredOutput) told to the model, first: the SDK drops
 * `tool_choice`, and the platform has no function calling of its own.
 */
export function withToolChoice(messages: Message[], forcedTool: string | undefined): Message[] {
	if (!forcedTool) return messages;
	const text = toolChoiceInstruction(forcedTool);
	return [{ role: 'system', content: [{ type: 'text', text }] }, ...messages];
}

/** Tools the model is not told about cannot be called: refused before any request. */
export function refuseUndescribedTools(
	ctx: PlatformContext,
	describeTools: boolean,
	tools: BoundTool[],
) {
	if (!tools.length || describeTools) return;
	throw new NodeOperationError(
		ctx.getNode(),
		'This model was given tools, and its option "Describe Tools to the Model" is off',
		{
			description:
				"The platform's chat endpoint has no function calling of its own: the model learns about n8n's tools only from their description. Turn the option on, or remove the tools from the AI Agent.",
		},
	);
}

/**
 * The one correction round's request: what was wrong, and the shape again; with a forced tool
 * choice, the tool it must call (plain text is no answer then).
 */
export function toolsCorrection(problem: string, tools: BoundTool[], forced?: string): string {
	if (forced) return `${CORRECTION_OPENING}: ${problem}. ${toolChoiceInstruction(forced)}`;
	return (
		`${CORRECTION_OPENING}: ${problem}. ` +
		`To call a tool, answer with only ${SHAPE}, naming one of ${tools.map((t) => `"${t.name}"`).join(', ')}. ` +
		'To give the final answer, write plain text.'
	);
}
