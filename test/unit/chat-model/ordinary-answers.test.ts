/**
 * Ordinary answers stay answers (issue 50), read whole: each answer of the corpus
 * (ordinary-answers.corpus.ts), with two tools bound, is the final answer word for word; after
 * reasoning, the answer is the text after it. And recall kept: every family's calls of the same
 * tools (toolCallCorpus.ts's writers) are still read as calls.
 */
import { readToolsAnswer } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import {
	AFTER_REASONING,
	fenceLanguages,
	ORDINARY_ANSWERS,
	TOOL_SETS,
} from './ordinary-answers.corpus';
import { FAMILIES, type Call } from './toolCallCorpus';

const named = (answers: typeof ORDINARY_ANSWERS) =>
	answers.map((a) => [`${a.about} (${a.tools})`, a] as const);

/** A call of each bound tool of each set, with arguments its schema takes. */
const CALLS: Record<keyof typeof TOOL_SETS, Call[]> = {
	math: [
		{ name: 'add', arguments: { a: 2, b: 3 } },
		{ name: 'lookup', arguments: { input: 'otter' } },
	],
	weather: [
		{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
		{ name: 'search_docs', arguments: { query: 'rate limits', limit: 5 } },
	],
	mail: [
		{ name: 'send_email', arguments: { to: 'ops@example.com', subject: 'Disk', body: 'Full' } },
		{ name: 'create_ticket', arguments: { title: 'VPN drops', priority: 'high' } },
	],
};

describe('ordinary answers, read whole', () => {
	it('the corpus: at least 300 answers, code in at least 15 languages, long ones up to 60 KB', () => {
		expect(ORDINARY_ANSWERS.length).toBeGreaterThanOrEqual(300);
		expect(fenceLanguages(ORDINARY_ANSWERS).size).toBeGreaterThanOrEqual(15);
		const sizes = ORDINARY_ANSWERS.map((a) => a.answer.length);
		expect(Math.max(...sizes)).toBeGreaterThanOrEqual(55_000);
		// as a chat answer is read: no white space at its ends
		for (const { answer } of ORDINARY_ANSWERS) expect(answer).toBe(answer.trim());
	});

	it.each(named(ORDINARY_ANSWERS))('%s: the answer, word for word', (_, { answer, tools }) => {
		expect(readToolsAnswer(answer, TOOL_SETS[tools])).toEqual({ kind: 'final', text: answer });
	});

	it.each(named(AFTER_REASONING))(
		'%s: the answer after it, the reasoning beside it',
		(_, { answer, tools }) => {
			const { reasoning } = AFTER_REASONING.find((a) => a.answer === answer)!;
			const read = readToolsAnswer(`${reasoning}${answer}`, TOOL_SETS[tools]);
			expect(read).toMatchObject({ kind: 'final', text: answer });
			expect(read.reasoning).toBeTruthy();
		},
	);
});

describe('recall kept: calls of the same tools in every family', () => {
	const cases = Object.entries(CALLS).flatMap(([set, calls]) =>
		FAMILIES.flatMap(({ family, write }) => [
			[`${family}, ${calls[0].name}`, set, write([calls[0]]), [calls[0]]] as const,
			[`${family}, ${calls.map((c) => c.name).join(' and ')}`, set, write(calls), calls] as const,
		]),
	);

	it.each(cases)('%s: read as the call', (_, set, reply, calls) => {
		const read = readToolsAnswer(reply, TOOL_SETS[set as keyof typeof TOOL_SETS]);
		expect(read).toMatchObject({ kind: 'calls', calls });
	});
});
