/**
 * The scripted model's answers written the way another model family or agent framework writes
 * them, by the writers of the reader's family modules (helpers/chatModel/toolCalls/families/, each
 * naming its public source), so that a person can watch the chat model read any family end to end:
 * the emulator's `modelFamily` option (`--model-family hermes`), or `[family: hermes]` in a question. A `+think` suffix
 * (`hermes+think`) puts reasoning before every answer, as reasoning models write it;
 * `+closing-think` writes it as DeepSeek-R1 and QwQ do, whose prompt opens it: only `</think>`.
 */
import { CALL_WRITERS, FINAL_WRITERS } from '../modelFormats';
import type { Call } from '../modelFormats';

/** A call as the scripted model writes it. */
export type WrittenCall = Call;

const json = (value: unknown) => JSON.stringify(value);

/** Each family's calls, as its models write them: the reader's own family modules' writers. */
const CALLS = CALL_WRITERS;

/** The final answer, where the family wraps it. */
const FINALS = FINAL_WRITERS;

/**
 * Reasoning as the family writes it, before the answer; it quotes a call of the tool, which must
 * not run (a reader that read it would call the tool without its arguments).
 */
function reasoning(family: string, tool: string, closingOnly: boolean): string {
	const quoted = json({ name: tool, arguments: {} });
	const thought = `The user asked something; a call would look like ${quoted}. I decide now.`;
	if (closingOnly) return `${thought}\n</think>\n\n`;
	if (family === 'harmony') return `<|channel|>analysis<|message|>${thought}<|end|>`;
	if (family === 'seed-oss') return `<seed:think>${thought}</seed:think>`;
	return `<think>${thought}</think>\n\n`;
}

export const MODEL_FAMILIES = Object.keys(CALLS);

function parts(family: string | undefined): { base: string; think: boolean; closing: boolean } {
	const [base, extra] = (family ?? 'asked').split('+');
	const closing = extra === 'closing-think';
	return { base: CALLS[base] ? base : 'asked', think: closing || extra === 'think', closing };
}

/** The calls as the family writes them. */
export function familyCalls(family: string | undefined, calls: WrittenCall[]): string {
	const { base, think, closing } = parts(family);
	const thought = think ? reasoning(base, calls[0]?.name ?? 'tool', closing) : '';
	return `${thought}${CALLS[base](calls)}`;
}

/** A final answer as the family writes it; `tool`: the tool its reasoning quotes a call of. */
export function familyAnswer(family: string | undefined, answer: string, tool = 'tool'): string {
	const { base, think, closing } = parts(family);
	return `${think ? reasoning(base, tool, closing) : ''}${FINALS[base]?.(answer) ?? answer}`;
}
