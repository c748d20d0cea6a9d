/**
 * What the emulator's stand-in for a model says (docs/emulator.md), written in the tools
 * protocol's words for the package's chat model by toolsProtocolModel.ts. It is
 * no model: it answers the example workflows' suggested questions with turns written for them,
 * and anything else with a short answer that says what it is:
 *
 * - a question that names bound tools calls them (in the question's order);
 * - *What does otter mean?* calls the glossary (a tool whose name or description says glossary,
 *   dictionary or meaning) with the word;
 * - *Write a Python function that reverses a string* is answered with that function;
 * - *Which word did I ask you about first?* is answered from the history it was sent;
 * - a question that shares a word with a tool's description calls that tool;
 * - a tool's result is said in a sentence; anything else gets the stand-in's plain answer.
 */

/** What a question gives a tool's arguments: texts (each once, the last again) and numbers. */
export interface Given {
	texts: string[];
	numbers: number[];
}

/** The text's words, lower case, as written: no stems, no synonyms. */
const wordsOf = (text: string) =>
	new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2));

// words of any sentence, which say nothing of what a tool is for
const COMMON = new Set(
	'the and for are but not you your with this that from has have was were its into when what which who how does will can could would should there their them they then than also only some more most each other returns return gives give tool tools uses using true input category description about'.split(
		' ',
	),
);

/** The words of a description that say what it is about: its words without the common ones. */
const telling = (text: string) => [...wordsOf(text)].filter((w) => !COMMON.has(w));

/** Said in the first answer of a conversation, where a person looks. */
export const STAND_IN_NOTE =
	"(The emulator's stand-in answered, with a turn written for the example: not a real model.)";

/** The answer to anything the stand-in has no turn for. */
export const PLAIN_ANSWER =
	"I am the emulator's stand-in for a model, not a real one, so I cannot answer that. " +
	"I answer the example workflows' suggested questions; set EMULATOR_MODEL_URL to chat with a model of your own.";

export interface NamedTool {
	name: string;
	description?: string;
}

/** What the stand-in does: call tools (with what the question gives them), or answer. */
export type Turn<T> =
	{ kind: 'calls'; calls: Array<{ tool: T; given: Given }> } | { kind: 'answer'; text: string };

const LOOKUP = /^\s*what does (?:the word )?["“']?([\p{L}\p{N}-]+)["”']? mean\s*\??\s*$/iu;
const GLOSSARY = /\b(?:glossary|dictionary|meaning)\b/i;
const CODE = /^\s*write a python function that reverses a string\s*[.?!]?\s*$/i;
const FIRST_WORD = /^\s*which word did i ask (?:you )?about first\s*\??\s*$/i;
const REVERSE = '```python\ndef reverse_string(text):\n    return text[::-1]\n```';

const spaced = (name: string) =>
	name
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.toLowerCase();

/** The question's quoted words, else the question itself: what a string argument takes. */
export function givenBy(question: string): Given {
	const quoted = [...question.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]);
	const numbers = (question.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
	return { texts: quoted.length ? quoted : [question.trim()], numbers };
}

/** The tools the question names, in the order it names them. */
function namedTools<T extends NamedTool>(question: string, tools: T[]): T[] {
	const asked = ` ${spaced(question).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
	const at = (tool: T) => asked.indexOf(` ${spaced(tool.name).trim()} `);
	return tools.filter((tool) => at(tool) >= 0).sort((a, b) => at(a) - at(b));
}

/** The tool whose description shares the most words with the question, if one shares any. */
function describedTool<T extends NamedTool>(question: string, tools: T[]): T | undefined {
	const asked = wordsOf(question);
	let best: { tool: T; count: number } | undefined;
	for (const tool of tools) {
		const words = telling(tool.description ?? '');
		const count = words.filter((w) => asked.has(w)).length;
		if (count > 0 && (!best || count > best.count)) best = { tool, count };
	}
	return best?.tool;
}

/** The answer to *Which word did I ask you about first?*, from the user's earlier messages. */
function firstWordAnswer(earlier: string[]): string {
	if (!earlier.length)
		return 'This is the first message of our conversation: you have asked me about no word yet.';
	const word = earlier.map((m) => LOOKUP.exec(m)?.[1]).find(Boolean);
	const first = earlier.find((m) => LOOKUP.test(m)) ?? earlier[0];
	return word
		? `Your first question was about ${word} ("${first.trim()}").`
		: `You asked me about no word; your first message was "${first.trim()}".`;
}

/** The stand-in's turn for a question, given the user's earlier messages and the bound tools. */
export function standInTurn<T extends NamedTool>(
	question: string,
	earlier: string[],
	tools: T[],
): Turn<T> {
	const given = givenBy(question);
	const named = namedTools(question, tools);
	if (named.length) return { kind: 'calls', calls: named.map((tool) => ({ tool, given })) };
	const word = LOOKUP.exec(question)?.[1];
	const glossary = tools.find((t) => GLOSSARY.test(`${spaced(t.name)} ${t.description ?? ''}`));
	if (word && glossary)
		return { kind: 'calls', calls: [{ tool: glossary, given: { ...given, texts: [word] } }] };
	if (CODE.test(question))
		return {
			kind: 'answer',
			text: `Here is a Python function that reverses a string:\n\n${REVERSE}`,
		};
	if (FIRST_WORD.test(question)) return { kind: 'answer', text: firstWordAnswer(earlier) };
	const described = describedTool(question, tools);
	if (described) return { kind: 'calls', calls: [{ tool: described, given }] };
	return { kind: 'answer', text: PLAIN_ANSWER };
}

/** A tool's result as text: the answer of a JSON result (n8n's `response`, a run's `output`). */
function resultText(result: string): string {
	let value: unknown = result;
	try {
		value = JSON.parse(result);
	} catch {
		return result.trim();
	}
	while (Array.isArray(value) && value.length === 1) value = value[0];
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		const record = value as Record<string, unknown>;
		const key = ['output', 'response', 'answer', 'result', 'text'].find(
			(k) => typeof record[k] === 'string',
		);
		if (key) return resultText(record[key] as string);
	}
	return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

/** One sentence from a tool's result. */
export function resultSentence(tool: string | undefined, result: string): string {
	const name = tool ?? 'the tool';
	const text = resultText(result);
	if (!text) return `The ${name} tool returned nothing.`;
	// a glossary's "otter: a river animal" is a word and its meaning
	const meaning = /^([\p{L}\p{N}-]+):\s+([\s\S]+)$/u.exec(text);
	const sentence = meaning
		? `According to ${name}, ${meaning[1]} ${/^not\b/.test(meaning[2]) ? 'is' : 'means'} ${meaning[2]}`
		: `The ${name} tool returned: ${text}`;
	return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A final answer, with the note in the first answer of a conversation. */
export function noted(text: string, firstAnswer: boolean): string {
	return firstAnswer && text !== PLAIN_ANSWER ? `${text}\n\n${STAND_IN_NOTE}` : text;
}
