import type { BoundTool, Verdict, WrittenCall } from '../types';

/** Tags and tokens after a call, to its block's end: no words of an answer. */
export const CLOSING_MARKUP = /<\/?[\w:-]+>|<[|｜][^>]*[|｜]>/g;
/** How special tokens end. */
export const TOKEN_END = '|>';
export const FULL_WIDTH_TOKEN_END = '｜>';

type Read = (text: string, at: number, tools: BoundTool[]) => WrittenCall[];

/**
 * A family's reader whose blocks open before their calls (a section's token, a wrapper tag): each
 * call read with where its whole block begins, back from the call over white space and the
 * `openings` written right before it, so that the prose before it is a slice of the answer.
 */
export function inBlocks(openings: string[], read: Read): Read {
	return (text, at, tools) =>
		read(text, at, tools).map((call) => {
			let blockStart = call.start;
			for (;;) {
				let before = blockStart;
				while (before > 0 && /\s/.test(text[before - 1])) before--;
				const opening = openings.find(
					(each) => before >= each.length && text.startsWith(each, before - each.length),
				);
				if (!opening) break;
				blockStart = before - opening.length;
			}
			return blockStart < call.start ? { ...call, blockStart } : call;
		});
}

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
	// a name not whole yet, or nothing after it yet: a call's content or a sentence's next word
	if (!ended && /^[\w.:=-]+[ \t]*$/.test(content))
		return content.length < 64 ? 'undecided' : 'text';
	return CALL_AFTER_TAG.test(content) ? 'call' : 'text';
}
