/**
 * The Agent Platform Chat Model's tools protocol against the emulator: a tool call read back from
 * the stand-in (dev/emulator/toolsProtocolModel.ts), the final answer after the tool's result, and
 * each malformed answer, written out here as the model's replies (the emulator's `replies`), with
 * its one correction round; streamed and whole.
 *
 * Run: npx jest test/integration/chatModel --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';
import type { Message } from '../../../nodes/AgentPlatform/helpers/chatModel/aiNodeSdk';
import { callModel, CODE_TOOL, completionPosts, emu, replies, user } from './chat-model.shared';

const QUESTION = 'Use lookup on "otter".';
// the model's replies, as the tools protocol asks for a call (docs/chat-model.md), by hand
const VALID = '{"tool_call": {"name": "lookup", "arguments": {"input": "otter"}}}';
const BROKEN = '{"tool_call": {"name": ';
const PROSE = `I can answer that without a tool: ${QUESTION}`;
const call = (json: IDataObject) =>
	((json.message as IDataObject).content as IDataObject[]).find((c) => c.type === 'tool-call');

describe('Agent Platform Chat Model: tools protocol', () => {
	it('a tool call comes back as one, from one request; the tool result then gives the final answer', async () => {
		const first = await callModel([{ messages: [user(QUESTION)], tools: [CODE_TOOL] }]);
		expect(first.error).toBeUndefined();
		expect(first.json[0].finishReason).toBe('tool-calls');
		const toolCall = call(first.json[0])!;
		expect(toolCall).toMatchObject({
			toolName: 'lookup',
			input: JSON.stringify({ input: 'otter' }),
		});
		expect(completionPosts()).toHaveLength(1);
		const sent = (completionPosts()[0].body as IDataObject).messages as IDataObject[];
		expect(sent.map((m) => m.role)).toEqual(['system', 'user']);
		expect(sent[0].content).toContain('- lookup: Looks a word up');

		const conversation: Message[] = [
			user(QUESTION),
			first.json[0].message as unknown as Message,
			{
				role: 'tool',
				content: [
					{
						type: 'tool-result',
						toolCallId: String(toolCall.toolCallId),
						result: 'a river animal',
					},
				],
			},
		];
		const second = await callModel([{ messages: conversation, tools: [CODE_TOOL] }]);
		// the platform's answer, whole: built from the tool's result
		const said = [...emu.state.runs.values()].pop()!.output;
		expect(said).toContain('a river animal');
		expect(second.json[0]).toMatchObject({
			finishReason: 'stop',
			message: { content: [{ type: 'text', text: said }] },
		});
		expect(completionPosts()).toHaveLength(2);
		const history = (completionPosts()[1].body as IDataObject).messages as IDataObject[];
		expect(history.slice(1)).toEqual([
			{ role: 'user', content: QUESTION },
			{
				role: 'assistant',
				content: JSON.stringify({ tool_call: { name: 'lookup', arguments: { input: 'otter' } } }),
			},
			{ role: 'user', content: 'Result of the tool "lookup":\na river animal' },
		]);
	});

	it('prose is the final answer, with no correction round', async () => {
		replies(PROSE);
		const { json } = await callModel([{ messages: [user(QUESTION)], tools: [CODE_TOOL] }]);
		expect(json[0]).toMatchObject({
			finishReason: 'stop',
			message: { content: [{ type: 'text', text: PROSE }] },
		});
		expect(completionPosts()).toHaveLength(1);
	});

	it.each([
		['broken json', BROKEN, /not valid JSON/],
		[
			'unknown tool',
			'{"tool_call": {"name": "no_such_tool", "arguments": {}}}',
			/there is no tool "no_such_tool"; the tools are "lookup"/,
		],
		[
			'wrong arguments',
			'{"tool_call": {"name": "lookup", "arguments": {"unexpected": true}}}',
			/the arguments of "lookup" do not match its schema/,
		],
	])('%s: one correction round naming the problem, then the call', async (_, first, problem) => {
		replies(first, VALID);
		const { json, error } = await callModel([{ messages: [user(QUESTION)], tools: [CODE_TOOL] }]);
		expect(error).toBeUndefined();
		expect(call(json[0])).toMatchObject({
			toolName: 'lookup',
			input: JSON.stringify({ input: 'otter' }),
		});
		expect(completionPosts()).toHaveLength(2);
		const correction = (
			(completionPosts()[1].body as IDataObject).messages as IDataObject[]
		).pop()!;
		expect(correction.role).toBe('user');
		expect(correction.content).toMatch(problem);
	});

	it.each([false, true])(
		'broken twice (streamed: %s): the first answer is the final one, in its words, with a note; 2 requests',
		async (stream) => {
			replies(BROKEN); // the last reply stays: the correction gets it again
			const { json, error } = await callModel([
				{ messages: [user(QUESTION)], tools: [CODE_TOOL], stream },
			]);
			expect(error).toBeUndefined();
			const first = BROKEN;
			if (stream) {
				const chunks = json[0].chunks as IDataObject[];
				const shown = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta);
				expect(shown.join('')).toBe(first);
				expect(chunks.some((c) => c.type === 'tool-call-delta')).toBe(false);
			} else {
				expect(json[0]).toMatchObject({
					finishReason: 'stop',
					message: { content: [{ type: 'text', text: first }] },
					providerMetadata: {
						toolCallReading: expect.stringMatching(/first answer is the final answer/),
					},
				});
			}
			expect(completionPosts()).toHaveLength(2);
		},
	);

	it('with "Describe Tools to the Model" off, tools fail before any request, saying why', async () => {
		const { error } = await callModel([
			{ messages: [user(QUESTION)], tools: [CODE_TOOL], settings: { describeTools: false } },
		]);
		expect(error?.message).toBe(
			'This model was given tools, and its option "Describe Tools to the Model" is off',
		);
		expect(completionPosts()).toHaveLength(0);
	});

	it('streamed: a call is pending until given as one tool-call chunk; prose streams as it comes', async () => {
		replies('{"tool_call": {"name": "no_such_tool", "arguments": {}}}', VALID, PROSE);
		const { json } = await callModel([
			{ messages: [user(QUESTION)], tools: [CODE_TOOL], stream: true },
			{ messages: [user(QUESTION)], tools: [CODE_TOOL], stream: true },
		]);
		const [called, prose] = json.map((j) => j.chunks as IDataObject[]);
		expect(called.filter((c) => c.type === 'text-delta')).toEqual([]);
		expect(called).toEqual([
			expect.objectContaining({
				type: 'tool-call-delta',
				name: 'lookup',
				argumentsDelta: JSON.stringify({ input: 'otter' }),
			}),
			// the correction's usage: the stream reported none
			{ type: 'finish', finishReason: 'tool-calls', usage: expect.objectContaining({}) },
		]);
		const deltas = prose.filter((c) => c.type === 'text-delta').map((c) => c.delta);
		expect(deltas.length).toBeGreaterThan(2);
		expect(deltas.join('')).toBe(PROSE);
		// the call's stream, its correction (not streamed), the prose's stream
		expect(completionPosts().map((r) => (r.body as IDataObject).stream ?? false)).toEqual([
			true,
			false,
			true,
		]);
	});
});
