/**
 * What opens a call in any family read (toolCalls/), for the stream to hold back and for the
 * prose before a call to lose: JSON's `{` and `[` (also `[TOOL_CALLS]`), a fence, any tag that
 * starts like a call's (`<tool…`, `<function…`, `<invoke`, `<TOOLCALL>`, `<minimax:`,
 * `<seed:tool`, `<final_answer>`), special tokens (`<|…|>`, DeepSeek's `<｜…｜>`), `functools`,
 * harmony's `to=functions`, ReAct's `Action:`.
 */
export const CALL_OPENINGS = [
	'{',
	'[',
	'```',
	'<tool',
	'<function',
	'<invoke',
	'<TOOLCALL',
	'<minimax:',
	'<seed:tool',
	'<final_answer',
	'<|',
	'<｜',
	'functools',
	'to=functions',
	'Action:',
];

/** Openings at the end of the prose before a call: not shown with the prose. */
const LEFT_BEFORE_CALL =
	/(?:\s|```[\w-]*|<\/?(?:tool|function|TOOLCALL|minimax:|seed:tool)[\w:]*>|\[TOOL_CALLS\]|<\|[\w▁]+\|>|<｜[^｜>]+｜>|functools|function<[|｜]tool[▁_]sep[|｜]>|<\|start\|>\s*assistant|<\|channel\|>\s*commentary|Action[ \t]*:)+$/i;

/** The text before the first call, without the fence, tag, token or label that opens the call. */
export function proseBefore(text: string, start: number): string {
	return text.slice(0, start).replace(LEFT_BEFORE_CALL, '').trim();
}

/** Markers that say the text meant a call, even where none could be read. */
export const NAMES_A_CALL =
	/<tool_call>|<function_calls>|<invoke\b|\[TOOL_CALLS\]|<\|python_tag\|>|<\|tool_calls_section_begin\|>|<[|｜]tool▁calls▁begin[|｜]>|<tool>|to=functions\.|"tool_calls?"/;

/** A marker that says the JSON right after it is a call (a tag, a token, a fence's language). */
const CALL_MARKER_BEFORE =
	/(?:<tool_calls?>|<function_call>|<TOOLCALL>|\[TOOL_CALLS\]|<\|python_tag\|>|<\|tool_call\|>|<\|plugin\|>|functools|```tool_calls?|Action[ \t]*:)\s*(?:```[\w-]*\s*)?$/i;

/** Whether the JSON at `start` follows a marker of a call. */
export function markedAsCall(text: string, start: number): boolean {
	return CALL_MARKER_BEFORE.test(text.slice(Math.max(0, start - 64), start));
}
