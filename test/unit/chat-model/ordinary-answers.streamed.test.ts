/**
 * Ordinary answers stay answers (issue 50), streamed: every answer of the corpus, a character at
 * a time and in three random chunkings (streamProperty.ts), shows at every piece only the start of
 * the answer and holds, with the stream's pending text, the answer word for word; after
 * reasoning, the answer after it and never the reasoning. One stream per feeding (linear per
 * answer), the answers in groups whose failures name each case.
 */
import { AFTER_REASONING, ORDINARY_ANSWERS, TOOL_SETS } from './ordinary-answers.corpus';
import { streamProblems } from './streamProperty';

/** Groups of answers, named by their first and last (a test per group, a failure per case). */
function groups<T extends { about: string }>(answers: T[], size: number) {
	const out: Array<[string, T[]]> = [];
	for (let at = 0; at < answers.length; at += size) {
		const group = answers.slice(at, at + size);
		out.push([`${group[0].about} … ${group[group.length - 1].about}`, group]);
	}
	return out;
}

describe('ordinary answers, streamed', () => {
	it.each(groups(ORDINARY_ANSWERS, 25))(
		'%s: a character at a time and in random chunks, the answer word for word',
		(_, answers) => {
			const cases = answers.map((a) => ({
				name: `${a.about} (${a.tools})`,
				reply: a.answer,
				tools: TOOL_SETS[a.tools],
				answer: a.answer,
			}));
			expect(streamProblems(cases)).toEqual([]);
		},
	);

	it.each(groups(AFTER_REASONING, 25))(
		'%s: the answer after the reasoning, never the reasoning',
		(_, answers) => {
			const cases = answers.map((a) => ({
				name: `${a.about} (${a.tools})`,
				reply: `${a.reasoning}${a.answer}`,
				tools: TOOL_SETS[a.tools],
				answer: a.answer,
			}));
			expect(streamProblems(cases)).toEqual([]);
		},
	);
});
