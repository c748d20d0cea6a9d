/**
 * A forced tool choice (LangChain's withStructuredOutput, as n8n's Evaluation node's Correctness
 * and Helpfulness metrics call it) against the emulator, with replies written out here (the emulator's `replies`): an answer in prose gets
 * the one correction round naming the tool it must call, then a plain error in the package's
 * words; whole and streamed. And a stream of a model whose prompt opens its reasoning (DeepSeek-R1,
 * QwQ): the reasoning never shown, from its first stream on.
 *
 * Run: npx jest test/integration/chatModel/chat-model-forced-tool.test.ts --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';

import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { callModel, CODE_TOOL, completionPosts, replies, user } from './chat-model.shared';

/** The Correctness metric's tool, as n8n 2.41.1 binds it. */
const GRADE: BoundTool = {
	name: 'extract',
	description: 'A grade of the answer',
	schema: {
		type: 'object',
		properties: {
			reasoning_summary: { type: 'string' },
			score: { type: 'integer', minimum: 1, maximum: 5, description: 'the similarity score' },
		},
		required: ['reasoning_summary', 'score'],
	},
};
const GRADED = 'Output: Paris\n\nGround truth: The capital of France is Paris.';
// the model's replies, by hand: prose, and the call the tools protocol asks for (docs/chat-model.md)
const PROSE = `I can answer that without a tool: ${GRADED}`;
const STILL_PROSE = `I still answer without a tool: ${GRADED}`;
const GRADE_CALL =
	'{"tool_call": {"name": "extract", "arguments": {"reasoning_summary": "Both say Paris.", "score": 5}}}';

const partsOf = (json: IDataObject) => (json.message as IDataObject).content as IDataObject[];
const sentMessages = (index: number) =>
	(completionPosts()[index].body as IDataObject).messages as IDataObject[];

describe('Agent Platform Chat Model: a forced tool choice', () => {
	it('called at once: one request, the instruction names the tool', async () => {
		replies(GRADE_CALL);
		const { json, error } = await callModel([
			{ messages: [user(GRADED)], tools: [GRADE], forcedTool: 'extract' },
		]);
		expect(error).toBeUndefined();
		expect(partsOf(json[0]).find((p) => p.type === 'tool-call')).toMatchObject({
			toolName: 'extract',
		});
		expect(completionPosts()).toHaveLength(1);
		expect(sentMessages(0)[0].content).toContain('You must call the tool "extract"');
	});

	it('prose once: one correction round naming the tool it must call, then the call', async () => {
		replies(PROSE, GRADE_CALL);
		const { json, error } = await callModel([
			{ messages: [user(GRADED)], tools: [GRADE], forcedTool: 'extract' },
		]);
		expect(error).toBeUndefined();
		expect(json[0].finishReason).toBe('tool-calls');
		const call = partsOf(json[0]).find((p) => p.type === 'tool-call')!;
		expect(call.toolName).toBe('extract');
		expect(JSON.parse(String(call.input))).toEqual({
			reasoning_summary: 'Both say Paris.',
			score: 5,
		});
		expect(completionPosts()).toHaveLength(2);
		const correction = sentMessages(1).pop()!;
		expect(correction.role).toBe('user');
		expect(correction.content).toMatch(/answered in plain text instead of calling "extract"/);
		expect(correction.content).toMatch(/You must call the tool "extract"/);
		expect(correction.content).not.toMatch(/write plain text/);
	});

	it('another tool instead of the forced one: corrected the same way', async () => {
		replies('{"tool_call": {"name": "no_such_tool", "arguments": {}}}', GRADE_CALL);
		const { json } = await callModel([
			{
				messages: [user('Look up the word otter.')],
				tools: [GRADE, CODE_TOOL],
				forcedTool: 'extract',
			},
		]);
		expect(completionPosts()).toHaveLength(2);
		expect(partsOf(json[0]).find((p) => p.type === 'tool-call')?.toolName).toBe('extract');
	});

	it('prose twice: a plain error in the package words, after two requests', async () => {
		replies(PROSE, STILL_PROSE);
		const { error } = await callModel([
			{
				messages: [user(GRADED)],
				tools: [GRADE],
				forcedTool: 'extract',
			},
		]);
		expect(error?.message).toBe(
			`The platform's model did not call the tool "extract" it was told to call`,
		);
		const { description } = error as Error & { description?: string };
		expect(description).toMatch(/answered in plain text instead of calling "extract"/);
		expect(description).toMatch(/Try another Model of the agent/);
		expect(completionPosts()).toHaveLength(2);
	});

	it('streamed, prose once: no text reaches the stream, the corrected call does', async () => {
		replies(PROSE, GRADE_CALL);
		const { json } = await callModel([
			{
				messages: [user(GRADED)],
				tools: [GRADE],
				forcedTool: 'extract',
				stream: true,
			},
		]);
		const chunks = json[0].chunks as IDataObject[];
		expect(chunks.filter((c) => c.type === 'text-delta')).toEqual([]);
		expect(chunks.find((c) => c.type === 'tool-call-delta')?.name).toBe('extract');
		expect(chunks[chunks.length - 1]).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
		expect(completionPosts()).toHaveLength(2);
	});

	it('streamed, prose twice: the same plain error', async () => {
		replies(PROSE, STILL_PROSE);
		const { error } = await callModel([
			{
				messages: [user(GRADED)],
				tools: [GRADE],
				forcedTool: 'extract',
				stream: true,
			},
		]);
		expect(error?.message).toMatch(/did not call the tool "extract" it was told to call/);
	});
});

describe('Agent Platform Chat Model: reasoning opened in the prompt, streamed', () => {
	const QUESTION = 'Use lookup on "otter".';
	const prose = `I can answer that without a tool: ${QUESTION}`;
	// reasoning whose opening tag was in the prompt (DeepSeek-R1, QwQ): only `</think>` is written
	const closingThought =
		'The user asked something; a call would look like {"name":"lookup","arguments":{}}. I decide now.\n</think>\n\n';
	const deltas = (json: IDataObject) =>
		(json.chunks as IDataObject[]).filter((c) => c.type === 'text-delta').map((c) => c.delta);

	it('a model of a family known to: the first stream shows none of the reasoning', async () => {
		replies(`${closingThought}${prose}`);
		const { json } = await callModel([
			{
				messages: [user(QUESTION)],
				tools: [CODE_TOOL],
				stream: true,
				settings: { models: ['deepseek-r1-distill-qwen-32b'] },
			},
		]);
		const shown = deltas(json[0]);
		expect(shown.join('')).toBe(prose);
		// held until `</think>`, then streamed as it comes
		expect(shown.length).toBeGreaterThan(2);
	});

	it('such a model that writes no reasoning after all: the held answer comes whole at the end', async () => {
		replies(prose);
		const { json } = await callModel([
			{
				messages: [user(QUESTION)],
				tools: [CODE_TOOL],
				stream: true,
				settings: { models: ['qwq-32b'] },
			},
		]);
		expect(deltas(json[0])).toEqual([prose]);
	});

	it('a model not known to: its first stream shows the reasoning (the limit), the next not', async () => {
		replies(`${closingThought}${prose}`);
		const asked = user(QUESTION);
		const { json } = await callModel([
			{ messages: [asked], tools: [CODE_TOOL], stream: true, settings: { models: ['gpt-4o'] } },
			{ messages: [asked], tools: [CODE_TOOL], stream: true, settings: { models: ['gpt-4o'] } },
		]);
		expect(deltas(json[0]).join('')).toContain('The user asked something');
		// the answer still arrives whole after the reasoning shown
		expect(deltas(json[0]).join('')).toMatch(new RegExp(`${prose.replace(/[?.]/g, '\\$&')}$`));
		expect(deltas(json[1]).join('')).toBe(prose);
	});
});
