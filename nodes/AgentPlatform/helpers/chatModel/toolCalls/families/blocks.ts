import type { Verdict } from '../types';

/**
 * The tags and tokens families wrap their calls in, as patterns the families share: a tag naming a
 * tool or function (`<tool_call>`, `<function_calls>`, `<minimax:tool_call>`), a special token
 * (`<|python_tag|>`), DeepSeek's full-width one (`<｜tool▁calls▁begin｜>`); and what may follow a
 * call to its block's end (closing tags and tokens). A family names the ones of its block.
 */
export const TOOL_TAG = '<\\/?[\\w:]*(?:tool|function)[\\w:]*>';
export const SPECIAL_TOKEN = '<\\|[\\w▁]+\\|>';
export const FULL_WIDTH_TOKEN = '<｜[^｜>]+｜>';
/** Tags and tokens after a call, to its block's end: no words of an answer. */
export const CLOSING_MARKUP = /<\/?[\w:-]+>|<[|｜][^>]*[|｜]>/g;
/** How special tokens end. */
export const TOKEN_END = '|>';
export const FULL_WIDTH_TOKEN_END = '｜>';

/** Fence languages that are a call wrapper of a protocol's own, not code a person asked for. */
export const CALL_FENCES = ['tool_code', 'tool_call', 'tool_calls'];
/** Fence languages whose block holds a call only in a protocol's own wrapper, after prose. */
export const JSON_FENCES = ['', 'json', 'json5', 'jsonc'];

/** What follows a call's tag: JSON, another tag, a quoted or bare name before its arguments. */
const CALL_AFTER_TAG = /^(?:[{[<"'｜]|[\w.:=-]+[ \t]*(?:[\n<>{["'(｜]|$))/;

/**
 * Whether a tag or special token opens a call: what follows it is a call's content, not words of
 * a sentence about it ("the tags wrap each call", "the token is Mistral's"). `ended`: the text is
 * whole, so nothing more comes.
 */
export function tagVerdict(after: string, ended: boolean): Verdict {
	const content = after.trimStart();
	if (!content) return ended ? 'call' : 'undecided';
	if (CALL_AFTER_TAG.test(content)) return 'call';
	// a name not whole yet
	return !ended && /^[\w.:=-]+$/.test(content) && content.length < 64 ? 'undecided' : 'text';
}
