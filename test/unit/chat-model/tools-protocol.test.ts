/**
 * The chat model's tools protocol (helpers/chatModel/toolsProtocol.ts): how n8n's tools are
 * described to a platform model without function calling, and how its answer is read back.
 */
import {
	readToolsAnswer,
	TOOLS_PROTOCOL_MARK,
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
		expect(text.startsWith(TOOLS_PROTOCOL_MARK)).toBe(true);
		expect(text).toContain('{"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}');
		expect(text).toContain(
			'- lookup_order: Finds an order by its number\n  arguments (JSON Schema): {"type":"object","properties":{"number":{"type":"integer"},"note":{"type":"string"}},"required":["number"]}',
		);
		expect(text).toContain('- weather: no description');
	});

	it('reads a tool call, bare or fenced, with its arguments checked (harmless coercions made)', () => {
		expect(
			readToolsAnswer(
				'{"tool_call": {"name": "lookup_order", "arguments": {"number": 42}}}',
				TOOLS,
			),
		).toEqual({ kind: 'call', name: 'lookup_order', arguments: { number: 42 } });
		expect(
			readToolsAnswer(
				'```json\n{"tool_call": {"name": "lookup_order", "arguments": {"number": "7"}}}\n```',
				TOOLS,
			),
		).toEqual({ kind: 'call', name: 'lookup_order', arguments: { number: 7 } });
		expect(readToolsAnswer('{"tool_call": {"name": "weather"}}', TOOLS)).toEqual({
			kind: 'call',
			name: 'weather',
			arguments: {},
		});
	});

	it('takes prose, and JSON that is no tool call, as the final answer', () => {
		expect(readToolsAnswer('Your order ships tomorrow.', TOOLS)).toEqual({
			kind: 'final',
			text: 'Your order ships tomorrow.',
		});
		expect(readToolsAnswer('{"city": "Lisbon"}', TOOLS)).toEqual({
			kind: 'final',
			text: '{"city": "Lisbon"}',
		});
	});

	it('names what is wrong with a broken call: bad JSON, an unknown tool, wrong arguments', () => {
		const problem = (text: string) => {
			const answer = readToolsAnswer(text, TOOLS);
			return answer.kind === 'malformed' ? answer.problem : `not malformed: ${answer.kind}`;
		};
		expect(problem('{"tool_call": {"name": ')).toMatch(/^The answer is not valid JSON/);
		expect(problem('{"tool_call": {"name": "refund", "arguments": {}}}')).toBe(
			'there is no tool "refund"; the tools are "lookup_order", "weather"',
		);
		expect(problem('{"tool_call": {"name": "lookup_order", "arguments": {"note": "x"}}}')).toMatch(
			/^the arguments of "lookup_order" do not match its schema: .*number/,
		);
		expect(problem('{"tool_call": "lookup_order"}')).toBe(
			'"tool_call" must be an object with "name" and "arguments"',
		);
		expect(problem('{"tool_call": {"name": "weather", "arguments": [1]}}')).toBe(
			'the arguments of "weather" must be a JSON object',
		);
	});

	it('asks for a correction naming the problem, the shape and the tools', () => {
		expect(toolsCorrection('there is no tool "refund"', TOOLS)).toBe(
			'Your previous answer cannot be used: there is no tool "refund". To call a tool, answer with only {"tool_call": {"name": "<tool name>", "arguments": {<arguments>}}}, naming one of "lookup_order", "weather". To give the final answer, write plain text.',
		);
	});
});
