/**
 * Whether what came so far at an opening without a marker of its own may still be a call, for
 * the stream (streamedText.ts): a call list's or a bare call's name, ReAct's `Action:` line. JSON's
 * verdict is jsonShapes.ts's. 'wait' while the text stops before it can be told.
 */
import { fenceRunAt, mayBecomeFenceRun } from '../../output/codeFences';
import { namesBoundTool } from './arguments';
import { jsonVerdict } from './jsonShapes';
import type { BoundTool, Verdict } from './types';

/** How far an opening may stay undecided before it is withheld to the end. */
export const DECIDED_WITHIN = 256;

/** Namespaces models write before a tool's name (`functions.add`, `default_api.add`). */
const NAMESPACES = ['functions', 'default_api', 'tools', 'api'];

/** Whether a name not yet whole may still become a bound tool's (or a namespace before one). */
function mayBecomeTool(written: string, tools: BoundTool[] | undefined): boolean {
	if (!tools) return true;
	const lower = written.toLowerCase();
	const last = lower.split('.').pop()!;
	return (
		tools.some((tool) => tool.name.toLowerCase().startsWith(last)) ||
		(!lower.includes('.') && NAMESPACES.some((space) => space.startsWith(lower)))
	);
}

/** A call list's or a bare call's name at the start of `text`: bound, not, or not whole yet. */
export function pythonVerdict(text: string, tools: BoundTool[] | undefined): Verdict {
	const call = /^(?:print\s*\(\s*)?([A-Za-z_][\w.-]*)(\s*)(\(?)/.exec(text);
	if (!call)
		return text.length < 8 && /^(?:p(?:r(?:i(?:n(?:t(?:\s*\(?)?)?)?)?)?)?$/.test(text)
			? 'wait'
			: 'not';
	const end = call[0].length;
	if (!call[3]) {
		const open = end >= text.length && end < DECIDED_WITHIN;
		const named = call[2] ? namesBoundTool(call[1], tools) : mayBecomeTool(call[1], tools);
		return open && named ? 'wait' : 'not';
	}
	return namesBoundTool(call[1], tools) ? 'call' : 'not';
}

/** JSON or a fence. */
const opensCall = (text: string) => /^[{[]/.test(text) || !!fenceRunAt(text, 0);

/** ReAct's `Action:` at a line's start: a call's label only when its input or JSON follows. */
export function actionVerdict(text: string): Verdict {
	const same = /^Action[ \t]*:[ \t]*([^\n]*)(\n?)([^\n]*)/.exec(text)!;
	if (opensCall(same[1])) return 'call';
	if (!same[2]) return same[1].length < 200 && text.length < DECIDED_WITHIN ? 'wait' : 'not';
	const next = same[3].trimStart();
	if (opensCall(next) || /^Action[ \t]*\d*[ \t]+Input/i.test(next)) return 'call';
	return 'Action Input'.startsWith(next) || mayBecomeFenceRun(next) ? 'wait' : 'not';
}

/** What follows a call's tag: JSON, another tag, a quoted or bare name before its arguments. */
const CALL_AFTER_TAG = /^(?:[{[<"'｜]|[\w.:=-]+[ \t]*(?:[\n<>{["'(｜]|$))/;

/**
 * Whether a marker (`<tool_call>`, `<invoke`, `[TOOL_CALLS]`, a special token) opens a call: what
 * follows it is a call's content, not words of a sentence about it ("<tool_call> tags wrap each
 * call", "[TOOL_CALLS] is Mistral's token").
 * `ended`: the text is whole, so nothing more comes.
 */
export function tagVerdict(marker: string, after: string, ended: boolean): Verdict {
	// a marker that is a word (Phi-4's `functools`) wraps a call only where JSON follows it at once
	if (/^[a-z]\w*$/i.test(marker)) {
		if (/^[{[]/.test(after)) return 'call';
		return !after && !ended ? 'wait' : 'not';
	}
	if (marker === '<final_answer>') return 'call';
	const content = after.trimStart();
	if (!content) return ended ? 'call' : 'wait';
	if (CALL_AFTER_TAG.test(content)) return 'call';
	// a name not whole yet
	return !ended && /^[\w.:=-]+$/.test(content) && content.length < 64 ? 'wait' : 'not';
}

/** The asked object's key (families/asked.ts's ASKED_KEY) at the start of `text`, whole or not yet. */
export function askedVerdict(text: string): Verdict {
	if (/^\{\s*(?:"tool_calls?"|'tool_calls?'|tool_calls?)\s*:/.test(text)) return 'call';
	const pending = /^\{\s*(["']?)([a-z_]*)(["']?)\s*$/.exec(text.slice(0, 32));
	if (!pending || text.length >= 32) return 'not';
	const [, open, word, close] = pending;
	if (close && (close !== open || !/^tool_calls?$/.test(word))) return 'not';
	return 'tool_calls'.startsWith(word) ? 'wait' : 'not';
}

/**
 * Whether a fenced block's first lines where a call may open (the answer's start or after its
 * lead-in) may be a call in any family's format: JSON, a marker, a call list or a bare call.
 */
export function fencedVerdict(
	content: string,
	markers: string[],
	tools: BoundTool[] | undefined,
): Verdict {
	if (!content) return 'wait';
	if (/^[{[]/.test(content) && !/^\[\s*[A-Za-z_]/.test(content))
		return jsonVerdict(content, tools, false);
	for (const marker of markers) {
		if (content.startsWith(marker))
			return tagVerdict(marker, content.slice(marker.length, marker.length + 64), false);
		if (marker.startsWith(content)) return 'wait';
	}
	return pythonVerdict(content.replace(/^\[\s*/, ''), tools);
}

/** Whether a tag's line ends right after it (spaces aside): 'wait' while that is not known yet. */
export function endsLine(after: string): Verdict {
	if (/^[ \t]*\r?\n/.test(after)) return 'call';
	return /^[ \t]*\r?$/.test(after) ? 'wait' : 'not';
}
