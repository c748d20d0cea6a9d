/**
 * Code in an answer, found once per answer (docs/chat-model.md, "Tool calls read"): fenced blocks
 * (helpers/output/codeFences.ts, for every reader) and inline code, a backtick run opening it and the next run on its
 * line closing it. Nothing in code is a call or reasoning, for every family; the stream follows the
 * same rule as it goes (InlineCode).
 */
import { fencesOf, type Fence } from '../../output/codeFences';
import { atLineStart } from './answerLayout';
import { TOKEN_ENDS } from './families';

export interface Code {
	fences: Fence[];
	/** Whether `at` lies inside a fenced block (after its opening line starts) or inline code. */
	inCode(at: number): boolean;
	/** The fenced block `at` lies inside, if any. */
	fenceAround(at: number): Fence | undefined;
	/**
	 * Whether `at` stands in the middle of a line of prose: words before it on its line, and no
	 * family's special token among them (families' `tokenEnds`).
	 */
	inSentence(at: number): boolean;
}

/** The first index of `sorted` whose value is above `at` (a binary search). */
function firstAbove(sorted: number[], at: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (sorted[middle] <= at) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * Inline code as [after its opening run starts, through its closing run] ranges, outside fences:
 * a place is in inline code where an odd number of backtick runs stands before it on its line, or
 * right after a backtick.
 */
function inlineRanges(text: string, fences: Fence[]): number[] {
	const ranges: number[] = [];
	let fence = 0;
	let open = -1;
	// the line of the run looked at, found by walking forward once: linear on a single long line
	let lineStart = 0;
	let openLine = 0;
	let newline = text.indexOf('\n');
	for (let at = text.indexOf('`'); at >= 0;) {
		for (; newline >= 0 && newline < at; newline = text.indexOf('\n', newline + 1))
			lineStart = newline + 1;
		while (fence < fences.length && fences[fence].end <= at) fence++;
		const inside = fence < fences.length && fences[fence].start <= at;
		let end = at;
		while (text[end] === '`') end++;
		if (open >= 0 && openLine !== lineStart) {
			// a run left open at its line's end: code to that end
			ranges.push(open, text.indexOf('\n', open));
			open = -1;
		}
		if (!inside) {
			if (open < 0) [open, openLine] = [at, lineStart];
			else {
				ranges.push(open, end);
				open = -1;
			}
		}
		at = text.indexOf('`', end);
	}
	if (open >= 0) {
		const lineEnd = text.indexOf('\n', open);
		ranges.push(open, lineEnd < 0 ? text.length : lineEnd);
	}
	return ranges;
}

/** The places of each of `marks` in the text, in order, found once: [where, which mark]. */
export function placesOf(text: string, marks: string[]): Array<[number, string]> {
	const places: Array<[number, string]> = [];
	for (const mark of marks)
		for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + mark.length))
			places.push([at, mark]);
	return places.sort((a, b) => a[0] - b[0]);
}

const wheres = (places: Array<[number, string]>) => places.map(([at]) => at);

export function codeOf(text: string): Code {
	const fences = fencesOf(text);
	const starts = fences.map((fence) => fence.start);
	const inline = inlineRanges(text, fences);
	const fenceAround = (at: number) => {
		const fence = fences[firstAbove(starts, at - 1) - 1];
		return fence && at > fence.start && at < fence.end ? fence : undefined;
	};
	let lines: number[] | undefined;
	let tokens: number[] | undefined;
	return {
		fences,
		fenceAround,
		inSentence: (at) => {
			if (atLineStart(text, at)) return false;
			lines ??= wheres(placesOf(text, ['\n']));
			tokens ??= wheres(placesOf(text, TOKEN_ENDS));
			const lineStart = (lines[firstAbove(lines, at - 1) - 1] ?? -1) + 1;
			// a token between the line's start and `at`: the last one before `at` is past the start
			const token = tokens[firstAbove(tokens, at - 2) - 1];
			return token === undefined || token < lineStart;
		},
		inCode: (at) => {
			if (fenceAround(at) || text[at - 1] === '`') return true;
			// ranges are (start, end]: `at` inside one where the boundaries before it are odd
			return firstAbove(inline, at - 1) % 2 === 1 && inline.length > 0;
		},
	};
}

/**
 * Inline code as a stream meets it: the backtick runs of the current line counted once each, so
 * that a place is told in or out of inline code by the same rule as codeOf's, in linear time.
 */
export class InlineCode {
	private counted = 0;
	private runs = 0;

	/** Whether `at` of `text` is in inline code; `at` never goes back before a place asked. */
	at(text: string, at: number): boolean {
		for (let i = this.counted; i < at; i++) {
			const char = text[i];
			if (char === '\n') this.runs = 0;
			else if (char === '`' && text[i - 1] !== '`') this.runs++;
		}
		this.counted = Math.max(this.counted, at);
		return text[at - 1] === '`' || this.runs % 2 === 1;
	}

	/** The text before `cut` was dropped: places move back by as much. */
	shift(cut: number) {
		this.counted -= cut;
	}

	/** A fenced block's lines were passed over: its backticks are no inline code. */
	skipTo(at: number) {
		this.counted = Math.max(this.counted, at);
		this.runs = 0;
	}
}
