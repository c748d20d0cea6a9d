/**
 * Every family of the corpus (toolCallCorpus.ts), read whole and streamed: one call, two calls,
 * prose before, after and between, reasoning first. Streamed a character at a time and in random
 * chunks (streamProperty.ts): what the chat is shown is only ever the prose before the calls,
 * never a piece of a call's markup or of the reasoning. The writers are modelFormats/'; the
 * readings they must have are proven from outside by the hand-written fixtures.
 */
import {
	readToolsAnswer,
	type ToolsAnswer,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { streamProblems } from './streamProperty';
import { ADD, FAMILIES, LOOKUP, REASONINGS, TOOLS, type Call } from './toolCallCorpus';

const PROSE = "I'll use the tools now.";

interface Case {
	name: string;
	reply: string;
	prose: string;
	calls: Call[];
	reasoning?: string;
}

function casesOf({ family, write, together }: (typeof FAMILIES)[number]): Case[] {
	const cases: Case[] = [
		{ name: `${family}: one call`, reply: write([ADD]), prose: '', calls: [ADD] },
		{ name: `${family}: two calls`, reply: write([ADD, LOOKUP]), prose: '', calls: [ADD, LOOKUP] },
		{
			name: `${family}: prose before`,
			reply: `${PROSE}\n${write([ADD])}`,
			prose: PROSE,
			calls: [ADD],
		},
		{
			name: `${family}: prose after`,
			reply: `${write([LOOKUP])}\nI will wait for the result.`,
			prose: '',
			calls: [LOOKUP],
		},
		...REASONINGS.map(([reasoning, words]) => ({
			name: `${family}: reasoning first (${reasoning.slice(0, 12)}…)`,
			reply: `${reasoning}${write([ADD])}`,
			prose: '',
			calls: [ADD],
			reasoning: words,
		})),
	];
	if (!together)
		cases.push({
			name: `${family}: prose between`,
			reply: `${PROSE}\n${write([ADD])}\nThen the word:\n${write([LOOKUP])}`,
			prose: PROSE,
			calls: [ADD, LOOKUP],
		});
	return cases;
}

const CASES = FAMILIES.flatMap(casesOf);

function expectRead(answer: ToolsAnswer, expected: Case) {
	expect(answer).toMatchObject({ kind: 'calls', prose: expected.prose, calls: expected.calls });
	if (expected.reasoning) expect(answer.reasoning).toContain(expected.reasoning);
	else expect(answer.reasoning).toBeUndefined();
}

describe('tool calls of every family', () => {
	it.each(CASES.map((c) => [c.name, c] as const))('reads %s', (_, expected) => {
		expectRead(readToolsAnswer(expected.reply, TOOLS), expected);
	});

	it.each(FAMILIES.map((f) => [f.family, casesOf(f)] as const))(
		'streamed, %s: a character at a time and in random chunks, the prose shown, nothing of a call or the reasoning',
		(_, cases) => {
			expect(streamProblems(cases.map((c) => ({ ...c, tools: TOOLS })))).toEqual([]);
		},
	);
});
