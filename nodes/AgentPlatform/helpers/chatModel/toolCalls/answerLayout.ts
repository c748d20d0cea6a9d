/**
 * Where in an answer a call can stand (docs/chat-model.md, "Tool calls read"): code blocks and
 * inline code are code; a call without a marker opens the answer, or follows the few lines of
 * prose a family writes before a call; after calls, only a short closing sentence. Shared by the
 * whole reading (index.ts) and the stream (streamedText.ts), so that both draw the same lines.
 */

/** The prose a family writes before a call: a sentence or two, no code. */
export const LEAD_IN_CHARS = 400;
export const LEAD_IN_LINES = 3;
/** Prose after a call written without a marker: a closing sentence, no code. */
export const CLOSING_CHARS = 300;

/** Fence languages that are a call wrapper of a family's own, not code a person asked for. */
export const CALL_FENCES = ['tool_code', 'tool_call', 'tool_calls'];
/** Fence languages whose block holds a call only in a protocol's own wrapper, after prose. */
export const JSON_FENCES = ['', 'json', 'json5', 'jsonc'];

export interface Fence {
	/** Where the opening ``` stands, and where the block's lines start and end. */
	start: number;
	contentStart: number;
	contentEnd: number;
	/** After the closing ``` line (the text's end if it never closes). */
	end: number;
	language: string;
}

/** A fence's run of backticks or tildes and its language: the one pattern every reader uses. */
export const FENCE_RUN = '(?:`{3,}|~{3,})';
export const FENCE_LANGUAGE = '[\\w+#.-]*';
const FENCE_LINE = new RegExp(`^[ \\t]*(${FENCE_RUN})[ \\t]*(${FENCE_LANGUAGE})[^\\n]*$`);
/** A fence's opening line at the start of a text: its language in the first group. */
export const FENCE_OPENING = new RegExp(`^[ \\t]*${FENCE_RUN}[ \\t]*(${FENCE_LANGUAGE})[^\\n]*\\n`);

interface OpenFence {
	start: number;
	contentStart: number;
	language: string;
	ticks: string;
}

/** A block closed at `contentEnd` (written out: a spread of the open block is slow in V8). */
const closed = (open: OpenFence, contentEnd: number, end: number): Fence => ({
	start: open.start,
	contentStart: open.contentStart,
	contentEnd,
	end,
	language: open.language,
});

/** The fenced code blocks of the text, in one pass over the lines that hold ``` or ~~~. */
export function fencesOf(text: string): Fence[] {
	const fences: Fence[] = [];
	let open: OpenFence | undefined;
	let ticks = text.indexOf('```');
	let tildes = text.indexOf('~~~');
	while (ticks >= 0 || tildes >= 0) {
		const next = ticks < 0 ? tildes : tildes < 0 ? ticks : Math.min(ticks, tildes);
		// the line of the next ``` or ~~~: the lines before it hold no fence
		const start = text.lastIndexOf('\n', next) + 1;
		const newline = text.indexOf('\n', next);
		const end = newline < 0 ? text.length : newline;
		if (ticks >= 0 && ticks < end) ticks = text.indexOf('```', end);
		if (tildes >= 0 && tildes < end) tildes = text.indexOf('~~~', end);
		const line = text.slice(start, end);
		const fence = FENCE_LINE.exec(line);
		if (fence && !open) {
			open = {
				start,
				contentStart: Math.min(end + 1, text.length),
				language: fence[2],
				ticks: fence[1],
			};
		} else if (fence && open && fence[1][0] === open.ticks[0] && !fence[2]) {
			fences.push(closed(open, start, start + line.trimEnd().length));
			open = undefined;
		} else if (open && line.trimStart().startsWith(open.ticks)) {
			// a closing fence with text after it on its line (DeepSeek's ```<｜tool▁call▁end｜>)
			const at = start + line.indexOf(open.ticks);
			fences.push(closed(open, start, at + open.ticks.length));
			open = undefined;
		}
	}
	if (open) fences.push(closed(open, text.length, text.length));
	return fences;
}

/** Whether `at` is the first thing on its line (spaces aside). */
export function atLineStart(text: string, at: number): boolean {
	for (let i = at - 1; i >= 0; i--) {
		if (text[i] === '\n') return true;
		if (text[i] !== ' ' && text[i] !== '\t') return false;
	}
	return true;
}

/**
 * Whether no word follows `end` on its line, closing tags and tokens aside (a sentence does not go
 * on after a call it holds).
 */
export function endsItsLine(text: string, end: number): boolean {
	const lineEnd = text.indexOf('\n', end);
	const rest = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
	return !/[\p{L}\p{N}]/u.test(rest.replace(/<\/?[\w:-]+>|<[|｜][^>]*[|｜]>/g, ''));
}

/** Whether the text before a call is the prose a family writes before one. */
export function isLeadIn(prose: string): boolean {
	const trimmed = prose.trim();
	if (!trimmed) return true;
	if (trimmed.length > LEAD_IN_CHARS || trimmed.includes('```')) return false;
	return trimmed.split('\n').filter((line) => line.trim()).length <= LEAD_IN_LINES;
}

/** Whether the text after calls written without a marker is a closing sentence. */
export function isClosing(prose: string): boolean {
	const trimmed = prose.trim();
	return trimmed.length <= CLOSING_CHARS && !trimmed.includes('```') && !/^[{[]/.test(trimmed);
}
