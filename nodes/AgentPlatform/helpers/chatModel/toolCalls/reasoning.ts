/**
 * Reasoning is neither the answer nor a call: `<think>…</think>` (DeepSeek R1, Qwen3, QwQ; the
 * opening tag is often in the prompt, so only `</think>` comes), `<thinking>`, Seed-OSS's
 * `<seed:think>`, Kimi's `◁think▷`, and harmony's analysis channel (gpt-oss), whose final channel
 * is the answer. Taken out before the calls are read, so a call quoted in it does not run.
 */

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
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*analysis\s*<\|message\|>([\s\S]*?)(?:<\|end\|>|$)/g;
const HARMONY_FINAL =
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*final\s*<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/g;

/**
 * Where a closing tag stands as one: not quoted in inline code, and the end of its line (models
 * write `…\n</think>\n\n`); a tag inside a sentence about it is prose.
 */
export function closingAt(text: string, closing: string): number {
	for (let at = text.indexOf(closing); at >= 0; at = text.indexOf(closing, at + 1)) {
		const after = text.slice(at + closing.length, at + closing.length + 16);
		if (text[at - 1] !== '`' && /^[ \t]*(?:\r?\n|$)/.test(after)) return at;
	}
	return -1;
}

export interface Split {
	/** The reasoning, empty when there was none. */
	reasoning: string;
	/** The rest: the answer or the calls; unchanged when there was no reasoning. */
	text: string;
}

export function splitReasoning(reply: string): Split {
	const thoughts: string[] = [];
	// harmony's channels only where its token is: no regex run over every answer
	const harmony = reply.includes('<|channel|>');
	let text = harmony
		? reply.replace(HARMONY_ANALYSIS, (_, thought: string) => {
				thoughts.push(thought.trim());
				return '';
			})
		: reply;
	for (const [opening, closing] of REASONING_TAGS) {
		for (;;) {
			const start = text.length - text.trimStart().length;
			const close = closingAt(text, closing);
			if (text.startsWith(opening, start)) {
				const end = text.indexOf(closing, start);
				thoughts.push(text.slice(start + opening.length, end < 0 ? undefined : end).trim());
				text = text.slice(0, start) + (end < 0 ? '' : text.slice(end + closing.length));
			} else if (close >= 0 && !text.slice(0, close).includes(opening)) {
				// only the closing tag: everything before it was reasoning
				thoughts.push(text.slice(0, close).trim());
				text = text.slice(close + closing.length);
			} else break;
		}
	}
	const unwrapped = harmony ? text.replace(HARMONY_FINAL, (_, answer: string) => answer) : text;
	if (!thoughts.length && unwrapped === text) return { reasoning: '', text: reply };
	text = unwrapped;
	return { reasoning: thoughts.filter(Boolean).join('\n\n'), text: text.trim() };
}

/** The closing tag that ends reasoning whose opening tag was in the prompt, if the reply has one. */
export function closingAlone(reply: string): string | undefined {
	for (const [opening, closing] of REASONING_TAGS) {
		const close = closingAt(reply, closing);
		if (close >= 0 && !reply.slice(0, close).includes(opening)) return closing;
	}
	return undefined;
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
