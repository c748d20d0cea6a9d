/**
 * n8n's chat messages as the platform's chat-completions endpoint takes them
 * (helpers/chatModel/platformMessages.ts): roles system, user and assistant, text only.
 */
import type { Message } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import { toPlatformMessages } from '../../../nodes/AgentPlatform/helpers/chatModel/platformMessages';
import {
	toolsInstruction,
	type BoundTool,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';

const text = (role: Message['role'], value: string): Message => ({
	role,
	content: [{ type: 'text', text: value }],
});

describe('platform messages', () => {
	it('keeps the order and the roles; system messages go first, as one', () => {
		expect(
			toPlatformMessages(
				[
					text('system', 'You are brief.'),
					text('user', 'Hi'),
					text('assistant', 'Hello!'),
					text('system', 'Answer in French.'),
					text('user', 'How are you?'),
				],
				[],
			),
		).toEqual([
			{ role: 'system', content: 'You are brief.\n\nAnswer in French.' },
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello!' },
			{ role: 'user', content: 'How are you?' },
		]);
	});

	it('writes tool calls in the protocol shape and tool results as user text, naming the tool', () => {
		const tools: BoundTool[] = [{ name: 'clock', description: 'The time', schema: {} }];
		const messages: Message[] = [
			text('system', 'Be helpful.'),
			text('user', 'What time is it?'),
			{
				role: 'assistant',
				content: [
					{
						type: 'tool-call',
						toolCallId: 'c1',
						toolName: 'clock',
						input: '{"zone":"UTC","id":"c1"}',
					},
				],
			},
			{
				role: 'tool',
				content: [
					{ type: 'tool-result', toolCallId: 'c1', result: [{ type: 'text', text: '12:00' }] },
				],
			},
			{
				role: 'tool',
				content: [
					{ type: 'tool-result', toolCallId: 'c9', result: { failed: true }, isError: true },
				],
			},
		];
		expect(toPlatformMessages(messages, tools)).toEqual([
			{ role: 'system', content: `Be helpful.\n\n${toolsInstruction(tools)}` },
			{ role: 'user', content: 'What time is it?' },
			{ role: 'assistant', content: '{"tool_call":{"name":"clock","arguments":{"zone":"UTC"}}}' },
			{
				role: 'user',
				content: 'Result of the tool "clock":\n12:00\n\nError from the tool:\n{"failed":true}',
			},
		]);
	});

	it('sends text only: other blocks are left out, and a message of several texts is one text', () => {
		expect(
			toPlatformMessages(
				[
					{
						role: 'user',
						content: [
							{ type: 'text', text: 'Look at this' },
							{ type: 'file', mediaType: 'image/png', data: 'AAAA' },
							{ type: 'text', text: 'and describe it' },
						],
					},
				],
				[],
			),
		).toEqual([{ role: 'user', content: 'Look at this\nand describe it' }]);
	});
	it('writes a call that waited for an approval back as the model wrote it, not flattened', () => {
		const schema = {
			type: 'object',
			properties: {
				toolParameters: { type: 'object', properties: { a: { type: 'number' } } },
				hitlParameters: { type: 'object', properties: {} },
			},
		};
		const tools: BoundTool[] = [{ name: 'add', description: 'Adds', schema }];
		const call = (input: unknown): Message => ({
			role: 'assistant',
			content: [
				{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: JSON.stringify(input) },
			],
		});
		const written = (input: unknown) =>
			JSON.parse(toPlatformMessages([call(input)], tools)[1].content) as unknown;
		// n8n's AI Agent after the approval: {tool, ...toolParameters}
		expect(written({ tool: 'add', a: 12, b: 30 })).toEqual({
			tool_call: { name: 'add', arguments: { toolParameters: { a: 12, b: 30 } } },
		});
		// as the model wrote it, and a tool that is not gated: as they come
		expect(written({ toolParameters: { a: 1 }, hitlParameters: {} })).toEqual({
			tool_call: { name: 'add', arguments: { toolParameters: { a: 1 }, hitlParameters: {} } },
		});
		const plain: BoundTool[] = [{ name: 'add', description: 'Adds', schema: {} }];
		expect(JSON.parse(toPlatformMessages([call({ tool: 'add', a: 1 })], plain)[1].content)).toEqual(
			{ tool_call: { name: 'add', arguments: { tool: 'add', a: 1 } } },
		);
	});
});
