/**
 * Reasoning is neither the answer nor a call: `<think>…</think>` (DeepSeek R1, Qwen3, QwQ; the
 * opening tag is often in the prompt, so only `</think>` comes), `<thinking>`, Seed-OSS's
 * `<seed:think>`, Kimi's `◁think▷`, and harmony's analysis channel (gpt-oss), whose final channel
 * is the answer. Taken out before the calls are read, so a call quoted in it does not run;
 * wherever it stands outside code, at the start or in the middle.
 */

import { atLineStart } from './answerLayout';
import { codeOf, placesOf, type Code } from './code';

/** [opening, closing] of each family's reasoning. */
export const REASONING_TAGS: Array<[string, string]> = [
	['<think>', '</think>'],
	['<thinking>', '</thinking>'],
	['<seed:think>', '</seed:think>'],
	['◁think▷', '◁/think▷'],
];

/** Harmony's analysis channel, [opening, closing], as a stream meets it. */
export const HARMONY_REASONING: Array<[string, string]> = [
	['<|start|>assistant<|channel|>analysis<|message|>', '<|end|>'],
	['<|channel|>analysis<|message|>', '<|end|>'],
];
/** Harmony's tokens around the final answer: neither answer nor reasoning. */
export const HARMONY_WRAPPERS = [
	'<|start|>assistant<|channel|>final<|message|>',
	'<|channel|>final<|message|>',
	'<|return|>',
];

const HARMONY_ANALYSIS =
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*analysis\s*<\|message\|>([\s\S]*?)(?:<\|end\|>|(?=<\|start\|>|<\|channel\|>)|$)/g;
const HARMONY_FINAL =
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*final\s*<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/g;

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
export function splitReasoning(reply: string): Split {
	const thoughts: string[] = [];
	// harmony's channels only where its token is: no regex run over every answer
	const harmony = reply.includes('<|channel|>');
	const text = harmony
		? reply.replace(HARMONY_ANALYSIS, (_, thought: string) => {
				thoughts.push(thought.trim());
				return '';
			})
		: reply;
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
	const unwrapped = harmony ? answer.replace(HARMONY_FINAL, (_, final: string) => final) : answer;
	if (!thoughts.length && unwrapped === reply) return { reasoning: '', text: reply };
	return { reasoning: thoughts.filter(Boolean).join('\n\n'), text: unwrapped.trim() };
}

/** The closing tag that ends reasoning whose opening tag was in the prompt, if the reply has one. */
export function closingAlone(reply: string): string | undefined {
	return closingFirst(reply, codeOf(reply))?.[1];
}

/**
 * Model families whose chat template opens the reasoning in the prompt, so that the reply starts
 * inside it and only `</think>` is written (the names the serving stacks' reasoning parsers are
 * chosen by: vLLM's deepseek_r1 for DeepSeek-R1 and its distills, qwen3 for QwQ and Qwen3's
 * thinking models, minimax_m2_append_think for MiniMax-M2).
 */
const OPENED_IN_PROMPT = [
	/deepseek[\w.-]*?r1|\br1[-_]distill/i,
	/\bqwq\b/i,
	/qwen3[\w.-]*thinking/i,
	/minimax[-_. ]?m2/i,
];

/**
 * `</think>` when every model the answer may come from (the Model chosen, or the agent's options
 * with Agent Default) is of a family whose prompt opens the reasoning; else undefined (not known).
 */
export function reasoningOpenedInPrompt(models: string[]): string | undefined {
	const known = models.length > 0;
	return known && models.every((model) => OPENED_IN_PROMPT.some((family) => family.test(model)))
		? '</think>'
		: undefined;
}
