/**
 * A corpus of tool calls as the model families and agent frameworks write them: the
 * test writers (modelFormats/);
 * what they are read as is proven from outside by the hand-written fixtures (tool-call-fixtures*). From each
 * the tests make one call, two calls, prose before, after and between, and reasoning first.
 */
import { CALL_WRITERS, type Call } from './modelFormats';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

export type { Call };

export const TOOLS: BoundTool[] = [
	{
		name: 'add',
		description: 'Adds two numbers',
		schema: {
			type: 'object',
			properties: { a: { type: 'number' }, b: { type: 'number' } },
			required: ['a', 'b'],
		},
	},
	{
		name: 'lookup',
		description: 'Looks a word up (a Code tool: one string)',
		schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
	},
];

export const ADD: Call = { name: 'add', arguments: { a: 2, b: 3 } };
export const LOOKUP: Call = { name: 'lookup', arguments: { input: 'otter' } };

/**
 * Every family's writer; `together`: several calls are one block (an array, one section), so no
 * prose can stand between them.
 */
export const FAMILIES = Object.entries(CALL_WRITERS).map(([family, write]) => ({
	family,
	write,
	together: write([ADD, LOOKUP]) !== `${write([ADD])}\n${write([LOOKUP])}`,
}));

/** [reasoning as the family writes it, the words in it that must never be shown] */
export const REASONINGS: Array<[string, string]> = [
	[
		'<think>The user wants a sum. Not {"tool_call": {"name": "lookup", "arguments": {"input": "x"}}}.</think>\n\n',
		'The user wants',
	],
	['<seed:think>Adding is what the tool does.</seed:think>', 'Adding is what'],
	['<|channel|>analysis<|message|>We need the add tool.<|end|>', 'We need the add'],
	['<thinking>Let me think about the tools.</thinking>\n', 'Let me think'],
];
