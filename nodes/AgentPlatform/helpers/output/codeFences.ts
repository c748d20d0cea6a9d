/**
 * Fenced code blocks in a model's answer, defined once for every reader (the tool-call reader, the
 * reasoning, the stream, structured output), as CommonMark 0.31.2 defines them ("Fenced code
 * blocks", spec.commonmark.org/0.31.2/#fenced-code-blocks): a fence is a run of three or more
 * backticks or three or more tildes; a backtick fence's info string holds no backtick; the block
 * ends at a closing fence of the same character, at least as long as the opening one, or at the
 * text's end. Two liberties, as models write: a fence may stand at any indentation (inside list
 * items, which this reader does not track), and a closing run may have a special token after it on
 * its line (DeepSeek V3 writes ```` ```<｜tool▁call▁end｜> ````).
 */

/** A fence's run, for patterns that embed one: three or more backticks, or three or more tildes. */
export const FENCE_RUN = '(?:`{3,}|~{3,})';
/** The first word of an info string, as models write a language. */
export const FENCE_LANGUAGE = '[\\w+#.-]*';
/** The characters a fence is a run of. */
export const FENCE_CHARS = ['`', '~'];

const OPENING_LINE = new RegExp(`^[ \\t]*(${FENCE_RUN})[ \\t]*(${FENCE_LANGUAGE})([^\\n]*)$`);
/** A fence's opening line at the start of a text: its language in the first group. */
export const FENCE_OPENING = new RegExp(`^[ \\t]*${FENCE_RUN}[ \\t]*(${FENCE_LANGUAGE})[^\\n]*\\n`);

export interface Fence {
	/** Where the opening fence's line starts, and where the block's lines start and end. */
	start: number;
	contentStart: number;
	contentEnd: number;
	/** After the closing fence (the text's end if it never closes). */
	end: number;
	language: string;
}

/** The length of the fence run at `at` exactly (three or more of one fence character), else 0. */
export function fenceRunAt(text: string, at: number): number {
	const char = text[at];
	if (!FENCE_CHARS.includes(char)) return 0;
	let end = at;
	while (text[end] === char) end++;
	return end - at >= 3 ? end - at : 0;
}

/** Whether `text` may still become a fence run: one or two of a fence character, nothing else. */
export const mayBecomeFenceRun = (text: string) => /^(?:`{1,2}|~{1,2})$/.test(text);

/** Whether the text holds a fence's run anywhere. */
export const hasFenceRun = (text: string) => text.includes('```') || text.includes('~~~');

/**
 * The opening fence of a line (`line` without its line break): its run and language, if the line
 * opens a block (a backtick fence's info string with a backtick is inline code, not a fence).
 */
export function openingOf(line: string): { run: string; language: string } | undefined {
	const found = OPENING_LINE.exec(line);
	if (!found || (found[1][0] === '`' && `${found[2]}${found[3]}`.includes('`'))) return undefined;
	return { run: found[1], language: found[2] };
}

/**
 * Where the closing fence of a block opened by `run` ends on `line` (spaces before it allowed),
 * or -1: a run of the same character, at least as long, with spaces or a special token after it.
 */
export function closingEnd(line: string, run: string): number {
	const at = line.length - line.trimStart().length;
	const length = fenceRunAt(line, at);
	if (!length || line[at] !== run[0] || length < run.length) return -1;
	const rest = line.slice(at + length);
	return !rest.trim() || rest.trimStart().startsWith('<') ? at + length : -1;
}

/**
 * For a text that is still coming: where the closing fence of `run` whose run starts at `at` ends,
 * -1 where the line closes no block, undefined while that is not known (nothing after the run yet).
 */
export function closingSoFar(text: string, at: number, run: string): number | undefined {
	const lineStart = text.lastIndexOf('\n', at) + 1;
	const newline = text.indexOf('\n', at);
	const line = text.slice(lineStart, newline < 0 ? undefined : newline);
	const closing = closingEnd(line, run);
	if (closing >= 0 && newline < 0 && !line.slice(closing).trim()) return undefined;
	return closing < 0 ? -1 : lineStart + closing;
}

/** A block closed at `contentEnd` (written out: a spread of an open block is slow in V8). */
const closed = (open: Fence, contentEnd: number, end: number): Fence => ({
	start: open.start,
	contentStart: open.contentStart,
	contentEnd,
	end,
	language: open.language,
});

/** The fenced code blocks of the text, in one pass over the lines that hold ``` or ~~~. */
export function fencesOf(text: string): Fence[] {
	const fences: Fence[] = [];
	let open: (Fence & { run: string }) | undefined;
	let ticks = text.indexOf('```');
	let tildes = text.indexOf('~~~');
	while (ticks >= 0 || tildes >= 0) {
		const next = ticks < 0 ? tildes : tildes < 0 ? ticks : Math.min(ticks, tildes);
		// the line of the next run: the lines before it hold no fence
		const start = text.lastIndexOf('\n', next) + 1;
		const newline = text.indexOf('\n', next);
		const end = newline < 0 ? text.length : newline;
		if (ticks >= 0 && ticks < end) ticks = text.indexOf('```', end);
		if (tildes >= 0 && tildes < end) tildes = text.indexOf('~~~', end);
		const line = text.slice(start, end);
		if (open) {
			const closing = closingEnd(line, open.run);
			if (closing < 0) continue;
			fences.push(closed(open, start, start + closing));
			open = undefined;
			continue;
		}
		const opening = openingOf(line);
		if (opening)
			open = {
				start,
				contentStart: Math.min(end + 1, text.length),
				contentEnd: text.length,
				end: text.length,
				language: opening.language,
				run: opening.run,
			};
	}
	if (open) fences.push(closed(open, text.length, text.length));
	return fences;
}
