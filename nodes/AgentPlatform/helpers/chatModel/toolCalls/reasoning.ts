/**
 * Reasoning is neither the answer nor a call: each family's reasoning format (families/, as vLLM's
 * reasoning parsers): tags around it (the opening one often in the prompt, so only the closing
 * tag comes), or channels of special tokens whose final one is the answer. Taken out before the
 * calls are read, so a call quoted in it does not run; wherever it stands outside code, at the
 * start or in the middle.
 */

import { atLineStart } from './answerLayout';
import { codeOf, placesOf, type Code } from './code';
import { CHANNELS, REASONING_FORMATS, REASONING_TAGS } from './families';

const OPENINGS = REASONING_TAGS.map(([opening]) => opening);
const CLOSING_OF = new Map(REASONING_TAGS);

/**
 * Whether a closing tag at `at` stands alone as one: outside code, and the end of its line (models
 * write `…\n</think>\n\n`); a tag inside a sentence about it is prose.
 */
const closesAlone = (text: string, at: number, tag: string, code: Code) =>
	/^[ \t]*(?:\r?\n|$)/.test(text.slice(at + tag.length, at + tag.length + 16)) && !code.inCode(at);

/**
 * Whether an opening tag at `at` opens reasoning: outside code, first on its line or last (models
 * write `<think>\n…`); a tag in a sentence about it is prose.
 */
export const opensReasoning = (text: string, at: number, tag: string, code: Code) =>
	(atLineStart(text, at) ||
		/^[ \t]*\r?\n/.test(text.slice(at + tag.length, at + tag.length + 16))) &&
	!code.inCode(at);

/**
 * The closing tag that ends reasoning opened in the prompt, and where it stands: the first closing
 * tag standing alone with no opening tag before it.
 */
function closingFirst(text: string, code: Code): [number, string] | undefined {
	for (const [at, tag] of placesOf(text, [...CLOSING_OF.values()])) {
		if (!closesAlone(text, at, tag, code)) continue;
		const opening = [...CLOSING_OF].find(([, closing]) => closing === tag)![0];
		const before = text.lastIndexOf(opening, at);
		return before >= 0 && opensReasoning(text, before, opening, code) ? undefined : [at, tag];
	}
	return undefined;
}

export interface Split {
	/** The reasoning, empty when there was none. */
	reasoning: string;
	/** The rest: the answer or the calls; unchanged when there was no reasoning. */
	text: string;
}

/**
 * The reasoning taken out of a reply, wherever it stands outside code: before a closing tag alone
 * (opened in the prompt), and each block from an opening tag to its closing one (at the answer's
 * start also unclosed: cut off while reasoning). The answer's text around a block is joined as the
 * stream shows it: the text before it without its trailing spaces, then the text after it.
 */
export const splitReasoning = (reply: string): Split => reasoningOf(reply).split;

/** The split, and the code of its text where it is the reply unchanged (found once, here). */
export function reasoningOf(reply: string): { split: Split; code?: Code } {
	const thoughts: string[] = [];
	const text = CHANNELS.reduce((rest, channels) => channels.takeOut(rest, thoughts), reply);
	const code = codeOf(text);
	let answer = '';
	let from = 0;
	const first = closingFirst(text, code);
	if (first) {
		thoughts.push(text.slice(0, first[0]).trim());
		from = first[0] + first[1].length;
	}
	for (const [at, tag] of placesOf(text, OPENINGS)) {
		if (at < from || !opensReasoning(text, at, tag, code)) continue;
		const closing = CLOSING_OF.get(tag)!;
		const end = text.indexOf(closing, at + tag.length);
		const atStart = !text.slice(from, at).trim() && !answer.trim();
		if (end < 0 && !atStart) break;
		thoughts.push(text.slice(at + tag.length, end < 0 ? undefined : end).trim());
		answer += text.slice(from, at).trimEnd();
		from = end < 0 ? text.length : end + closing.length;
	}
	answer += text.slice(from);
	const unwrapped = CHANNELS.reduce((rest, channels) => channels.unwrap(rest), answer);
	if (!thoughts.length && unwrapped === reply)
		return { split: { reasoning: '', text: reply }, code };
	return { split: { reasoning: thoughts.filter(Boolean).join('\n\n'), text: unwrapped.trim() } };
}

/** The closing tag that ends reasoning whose opening tag was in the prompt, if the reply has one. */
export function closingAlone(reply: string): string | undefined {
	return closingFirst(reply, codeOf(reply))?.[1];
}

/**
 * The closing tag of the reasoning when every model the answer may come from (the Model chosen,
 * or the agent's options with Agent Default) is of a family whose prompt opens it; else undefined
 * (not known).
 */
export function reasoningOpenedInPrompt(models: string[]): string | undefined {
	const formats = models.map((model) =>
		REASONING_FORMATS.find((format) => format.openedInPrompt?.test(model)),
	);
	const closings = new Set(formats.map((format) => format?.tags?.[0][1]));
	return models.length > 0 && closings.size === 1 ? [...closings][0] : undefined;
}
