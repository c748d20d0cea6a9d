/**
 * The chat model's tools protocol (helpers/chatModel/toolsProtocol.ts): how n8n's tools are
 * described to a platform model without function calling (its answer is read by tool-call-reader.test.ts).
 */
import {
	toolsCorrection,
	toolsInstruction,
	type BoundTool,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';

const TOOLS: BoundTool[] = [
	{
		name: 'lookup_order',
		description: 'Finds an order by its number',
		schema: {
			type: 'object',
			properties: { number: { type: 'integer' }, note: { type: 'string' } },
			required: ['number'],
		},
	},
	{ name: 'weather', description: '', schema: { type: 'object', properties: {} } },
];

describe('tools protocol', () => {
	it('describes each tool with its schema and the one answer shape, after the mark', () => {
		const text = toolsInstruction(TOOLS);
		// the mark the platform's agents see first (docs/chat-model.md), written out
		expect(text.startsWith('Tools protocol 1 of the Agent Platform Chat Model for n8n.')).toBe(
			true,
		);
		expect(text).toContain('{"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}');
		expect(text).toContain(
			'- lookup_order: Finds an order by its number\n  arguments (JSON Schema): {"type":"object","properties":{"number":{"type":"integer"},"note":{"type":"string"}},"required":["number"]}',
		);
		expect(text).toContain('- weather: no description');
	});

	it('asks for a correction naming the problem, the shape and the tools', () => {
		expect(toolsCorrection('there is no tool "refund"', TOOLS)).toBe(
			'Your previous answer cannot be used: there is no tool "refund". To call a tool, answer with only {"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}, naming one of "lookup_order", "weather". To give the final answer, write plain text.',
		);
	});
});
