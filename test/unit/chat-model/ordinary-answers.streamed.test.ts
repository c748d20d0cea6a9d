/**
 * Ordinary answers stay answers (issue 50), streamed: each answer of the corpus cut in two at
 * every position (at spread positions for the long ones), and a sample given a character at
 * a time, or in 20-character pieces as a model streams: what the chat holds once the stream
 * ended is the answer, word for word, and what it was shown as it came is its start.
 */
import {
	AFTER_REASONING,
	ORDINARY_ANSWERS,
	SHORT_LIMIT,
	TOOL_SETS,
} from './ordinary-answers.corpus';
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { answerText, chunks, cuts, streamedThrough } from './ordinary-answers.streaming';

const named = (answers: typeof ORDINARY_ANSWERS) =>
	answers.map((a) => [`${a.about} (${a.tools})`, a] as const);

/** Fails with the first cut whose stream did not end with the answer. */
function expectEveryCut(
	reply: string,
	answer: string,
	text: string,
	tools: BoundTool[],
	positions: number[],
) {
	for (const cut of positions) {
		const { asItCame, atEnd } = streamedThrough(
			[reply.slice(0, cut), reply.slice(cut)],
			text,
			tools,
		);
		if (atEnd !== answer || !answer.startsWith(asItCame))
			throw new Error(
				`cut at ${cut} of ${reply.length}: shown as it came ${JSON.stringify(asItCame.slice(-80))}, at the end ${atEnd.length} of ${answer.length} characters`,
			);
	}
}

describe('ordinary answers, streamed', () => {
	it.each(named(ORDINARY_ANSWERS))('%s: at every cut, the answer word for word', (_, a) => {
		const text = answerText(a.answer, TOOL_SETS[a.tools]);
		expectEveryCut(a.answer, a.answer, text, TOOL_SETS[a.tools], cuts(a.answer.length));
	});

	it.each(named(ORDINARY_ANSWERS.filter((_, i) => i % 4 === 0)))(
		'%s: a character at a time (or 20 at a time when long), the answer word for word',
		(_, a) => {
			const text = answerText(a.answer, TOOL_SETS[a.tools]);
			const size = a.answer.length > SHORT_LIMIT ? 20 : 1;
			const { atEnd } = streamedThrough(chunks(a.answer, size), text, TOOL_SETS[a.tools]);
			expect(atEnd).toBe(a.answer);
		},
	);

	it.each(named(AFTER_REASONING))(
		'%s: the answer after the reasoning, at every cut, and never the reasoning',
		(_, a) => {
			const { reasoning } = AFTER_REASONING.find(
				(r) => r.answer === a.answer && r.about === a.about,
			)!;
			const reply = `${reasoning}${a.answer}`;
			const text = answerText(reply, TOOL_SETS[a.tools]);
			expectEveryCut(reply, a.answer, text, TOOL_SETS[a.tools], cuts(reply.length));
			expect(streamedThrough([...reply], text, TOOL_SETS[a.tools]).atEnd).toBe(a.answer);
		},
	);
});
