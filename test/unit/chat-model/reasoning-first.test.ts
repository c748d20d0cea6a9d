/**
 * Reasoning opened in the prompt (DeepSeek-R1, QwQ, Qwen3's thinking models, MiniMax-M2 write
 * only `</think>`): which models are known to, by name, so that their first stream starts inside
 * the reasoning; and such streams cut at every position, in two and a character at a time: the
 * reasoning never shown, the answer after it shown as it comes, and a reply with no reasoning
 * after all held whole for the end (nothing lost).
 */
import { readToolsAnswer } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { StreamedText } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls';
import {
	reasoningOpenedInPrompt,
	splitReasoning,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/reasoning';
import { feedings } from './streamProperty';
import { TOOLS } from './toolCallCorpus';

describe('models whose prompt opens the reasoning', () => {
	it.each([
		['deepseek-r1'],
		['DeepSeek-R1-0528'],
		['deepseek-ai/DeepSeek-R1-Distill-Llama-70B'],
		['r1-distill-qwen-14b'],
		['qwq-32b'],
		['Qwen/QwQ-32B-Preview'],
		['qwen3-235b-a22b-thinking-2507'],
		['Qwen3-30B-A3B-Thinking-2507-FP8'],
		['MiniMax-M2'],
		['minimax-m2.1'],
	])('%s: known, the stream starts inside the reasoning', (model) => {
		expect(reasoningOpenedInPrompt([model])).toBe('</think>');
	});

	it.each([
		['gpt-4o'],
		['deepseek-v3'],
		['deepseek-chat'],
		['qwen3-coder-480b-a35b-instruct'],
		['qwen3-235b-a22b-instruct-2507'],
		['qwen2.5-72b-instruct'],
		['claude-3-5-sonnet'],
		['gemini-2.5-pro'],
	])('%s: not known, the stream starts as prose', (model) => {
		expect(reasoningOpenedInPrompt([model])).toBeUndefined();
	});

	it('Agent Default: known only when every model the agent offers is', () => {
		expect(reasoningOpenedInPrompt(['deepseek-r1', 'qwq-32b'])).toBe('</think>');
		expect(reasoningOpenedInPrompt(['deepseek-r1', 'gpt-4o'])).toBeUndefined();
		expect(reasoningOpenedInPrompt([])).toBeUndefined();
	});
});

/** [case, reply, tools bound, what the chat may be shown] */
const STREAMS: Array<[string, string, boolean, string]> = [
	[
		'reasoning, then an answer',
		'Okay, the user wants 2 + 3. That is 5.\n</think>\n\nThe sum is 5.',
		true,
		'The sum is 5.',
	],
	[
		'reasoning quoting a call, then an answer, no tools',
		'A call would be {"name": "add", "arguments": {}}. No tools here.</think>\n\nHello! [1, 2]',
		false,
		'Hello! [1, 2]',
	],
	[
		'reasoning, then a call',
		'I should add.</think>\n<tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>',
		true,
		'',
	],
	[
		'reasoning, a sentence, then a call',
		'Hm.</think>Let me add these.\n{"name": "add", "arguments": {"a": 2, "b": 3}}',
		true,
		'Let me add these.',
	],
	[
		'the opening tag written after all',
		'<think>Hm, a sum.</think>The sum is 5.',
		true,
		'The sum is 5.',
	],
];

/** A character at a time and in random chunks (streamProperty.ts). */
const cuts = feedings;

function shownOf(pieces: string[], calls: boolean): string {
	const streamed = new StreamedText(calls, reasoningOpenedInPrompt(['deepseek-r1']));
	return pieces.map((piece) => streamed.push(piece)).join('');
}

describe('a stream that starts inside the reasoning', () => {
	it.each(STREAMS)('%s: no reasoning shown, cut anywhere', (_, reply, calls, answer) => {
		for (const pieces of cuts(reply)) {
			const shown = shownOf(pieces, calls);
			expect(answer.startsWith(shown)).toBe(true);
			expect(shown).not.toMatch(/user wants|A call would|I should|Hm/);
		}
		// a character at a time, the answer after the tag streams before the end
		if (answer && !calls) expect(shownOf([...reply], calls)).toBe(answer);
	});

	it('reasoning then prose, in pieces: the prose streams as it comes once the tag is passed', () => {
		const streamed = new StreamedText(TOOLS, '</think>');
		const pieces = ['The user ', 'greets me.\n</th', 'ink>\n\nHello', ' there', ', friend.'];
		const shown = pieces.map((piece) => streamed.push(piece));
		expect(shown).toEqual(['', '', 'Hello', ' there', ', friend.']);
	});

	it.each([
		['a plain answer', 'The sum is 5, and {name} fills the template.', false],
		['a plain answer, tools bound', 'The sum is 5.', true],
		['a call', '{"name": "add", "arguments": {"a": 2, "b": 3}}', true],
	])(
		'no reasoning after all (%s): nothing shown while streaming, all of it read at the end',
		(_, reply, calls) => {
			for (const pieces of cuts(reply)) expect(shownOf(pieces, calls)).toBe('');
			// what the stream releases at the end: the reply read whole, nothing lost
			expect(splitReasoning(reply)).toEqual({ reasoning: '', text: reply });
			if (calls) expect(readToolsAnswer(reply, TOOLS).kind).not.toBe('malformed');
		},
	);
});
