/**
 * The corpus of ordinary answers: what a chat assistant answers with two tools bound and calls
 * neither (code in many languages, documents, configs, n8n expressions, other APIs' calls
 * explained, notes and tables, long answers, answers cut off). Each must stay the answer, word
 * for word, whole and streamed (ordinary-answers.test.ts, ordinary-answers.streamed.test.ts).
 */
import { EDGES } from './ordinary-answers.edges';
import { FORMATS_EXPLAINED } from './ordinary-answers.more';
import { DATA_ASKED_FOR } from './ordinary-answers.more-data';
import { SHAPED_LIKE_CALLS } from './ordinary-answers.more-shapes';
import { AFTER_REASONING, CUT_OFF, LONG } from './ordinary-answers.long';
import { NAMESAKE_ANSWERS } from './ordinary-answers.namesakes';
import {
	CODE,
	DOCUMENTS_AND_CONFIGS,
	N8N_EXPRESSIONS,
	OTHER_APIS,
	PROSE,
} from './ordinary-answers.short';
import type { OrdinaryAnswer } from './ordinary-answers.tools';

export { TOOL_SETS, type OrdinaryAnswer } from './ordinary-answers.tools';
export { AFTER_REASONING, LONG };

/** Every answer with no reasoning before it: the reply is the answer. */
export const ORDINARY_ANSWERS: OrdinaryAnswer[] = [
	...CODE,
	...DOCUMENTS_AND_CONFIGS,
	...N8N_EXPRESSIONS,
	...OTHER_APIS,
	...PROSE,
	...EDGES,
	...NAMESAKE_ANSWERS,
	...FORMATS_EXPLAINED,
	...DATA_ASKED_FOR,
	...SHAPED_LIKE_CALLS,
	...LONG,
	...CUT_OFF,
];

/** Answers streamed a character at a time up to this length, in 20-character pieces beyond. */
export const SHORT_LIMIT = 8_000;

/** The languages of the corpus's code blocks (a fence's tag, aliases as one language). */
export function fenceLanguages(answers: OrdinaryAnswer[]): Set<string> {
	const alias: Record<string, string> = {
		js: 'javascript',
		ts: 'typescript',
		typescript: 'typescript',
		sh: 'bash',
		cs: 'csharp',
		'c++': 'cpp',
		ps1: 'powershell',
		R: 'r',
		postgresql: 'sql',
	};
	const tags = answers.flatMap((a) => [...a.answer.matchAll(/^```([\w+#-]+)$/gm)].map((m) => m[1]));
	return new Set(tags.map((tag) => alias[tag] ?? tag));
}
