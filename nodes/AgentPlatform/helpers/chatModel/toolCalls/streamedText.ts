/**
 * What of a streamed answer the chat may show as it comes, by the whole reading's rules
 * (answerLayout.ts, code.ts): text is pending only while it may still become a call of a bound
 * tool (a family's marker or the asked key outside code keeps pending the rest; JSON, a call list or a
 * fence where a call may open is pending until its first key, name or line decides, and let go
 * the moment it cannot). Nothing in code opens a call or reasoning. Reasoning is skipped: at the
 * answer's start at once, in the middle once its closing tag came. Linear in the answer's length.
 */
import { LEAD_IN_CHARS, atLineStart, isLeadIn } from './answerLayout';
import { closingSoFar, FENCE_CHARS, openingOf } from '../../output/codeFences';
import { InlineCode } from './code';
import { FAMILIES, REASONING_TAGS } from './families';
import { DECIDED_WITHIN, endsLine } from './openingVerdicts';
import {
	fencedVerdict,
	openingsOf,
	partialOpening,
	REASONING,
	REASONING_PAIRS,
	REASONING_STARTS,
	type Openings,
} from './streamOpenings';
import type { BoundTool, CallFamily, Verdict } from './types';

const closingOf = new Map(REASONING_PAIRS);
const OPENINGS = REASONING_TAGS.map(([opening]) => opening);
const CLOSINGS = REASONING_TAGS.map(([, closing]) => closing);
/** How much text before the place looked at stays (a line's indentation). */
const LOOKED_BACK = 64;

type Event = { kind: 'reasoning'; at: number; tag: string } | { kind: Pending; at: number };
type Pending = 'pending' | 'undecided';

export class StreamedText {
	private readonly tools: BoundTool[] | undefined;
	private readonly calls: boolean;
	private readonly openings: Openings;
	private text = '';
	/** Where the text not yet shown or skipped starts. */
	private at = 0;
	/** Where the search for the next opening goes on. */
	private scan = 0;
	/** Where the answer after reasoning starts (the prose before a call is counted from there). */
	private answerStart = 0;
	/** The closing tag awaited inside reasoning. */
	private closing: string | undefined;
	/** Reasoning in the middle, pending until its closing tag comes (unclosed, it was prose). */
	private pendingReasoning: string | undefined;
	/** Spaces before `at` not shown yet (an opening may follow them), moved out of the text. */
	private spaces = '';
	/** The fence of a code block let go: nothing in it is a call. */
	private codeFence: string | undefined;
	private readonly inline = new InlineCode();
	/** From a call's opening on, the rest is pending text until the answer is read. */
	private pendingToEnd = false;
	private started = false;
	/** All that was shown, in order. */
	shown = '';

	/**
	 * `tools`: the tools bound (true: tools are bound but not known here; false: none, so only
	 * reasoning is taken out). `reasoningUntil`: the answer starts inside reasoning whose opening tag
	 * was in the prompt; nothing is shown until this closing tag. `families`: the formats read.
	 */
	constructor(
		tools: BoundTool[] | boolean = true,
		reasoningUntil?: string,
		families: CallFamily[] = FAMILIES,
	) {
		this.calls = tools !== false;
		this.tools = Array.isArray(tools) ? tools : undefined;
		this.openings = openingsOf(families, this.calls);
		this.closing = reasoningUntil;
	}

	/** Takes the next piece; returns what may be shown now ('' for nothing). */
	push(piece: string): string {
		this.text += piece;
		let out = '';
		while (!this.pendingToEnd) {
			if (this.closing) {
				const from = Math.max(this.at, this.scan - this.closing.length);
				const end = this.text.indexOf(this.closing, from);
				if (end < 0) {
					// reasoning is never shown: only a closing tag's first characters stay
					this.scan = this.text.length;
					const keep = Math.max(this.at, this.scan - this.closing.length);
					if (this.pendingReasoning !== undefined)
						this.pendingReasoning += this.text.slice(this.at, keep);
					this.at = keep;
					break;
				}
				this.at = this.scan = end + this.closing.length;
				if (this.pendingReasoning === undefined) this.answerStart = this.at;
				this.inline.skipTo(this.at);
				this.closing = this.pendingReasoning = undefined;
				continue;
			}
			const event = this.nextEvent();
			if (!event) {
				const partial = partialOpening(this.text, this.at, this.openings);
				out += this.take(this.text.length - partial);
				this.scan = Math.min(this.scan, this.text.length - partial);
				break;
			}
			out += this.take(event.at);
			if (event.kind !== 'reasoning') {
				// an opening not decided yet is looked at again with the next piece
				if (event.kind === 'undecided') this.scan = event.at;
				else this.pendingToEnd = true;
				break;
			}
			// in the middle, pending (from its spaces before) until its closing tag says it was reasoning
			if (!this.atAnswerStart(event.at) && OPENINGS.includes(event.tag)) this.pendingReasoning = '';
			else this.at = event.at + event.tag.length;
			this.scan = event.at + event.tag.length;
			this.closing = closingOf.get(event.tag);
			if (!this.closing) this.answerStart = this.at;
		}
		this.shown += out;
		if (!this.pendingToEnd) this.forgetLooked();
		return out;
	}

	/**
	 * Drops the text shown and looked at, but for its line's end and, near the answer's start, the
	 * prose a call may follow: what stays is short, so that reading a character of it never copies
	 * the whole answer (a string grown piece by piece is flattened when read).
	 */
	private forgetLooked() {
		// spaces pending (a call may follow them) move aside: the text that stays is short
		const spacesTo = this.scan - LOOKED_BACK;
		if (!this.closing && this.at < spacesTo) {
			this.spaces += this.text.slice(this.at, spacesTo);
			this.at = spacesTo;
		}
		let cut = Math.min(this.at, this.scan) - LOOKED_BACK;
		if (cut < this.answerStart + LEAD_IN_CHARS * 2) cut = Math.min(cut, this.answerStart);
		if (cut < LOOKED_BACK * 4) return;
		this.text = this.text.slice(cut);
		this.at -= cut;
		this.scan -= cut;
		this.answerStart -= cut;
		this.inline.shift(cut);
	}

	/** The pending text: all not shown yet (reasoning aside), for an answer that turns out no call. */
	pending(): string {
		if (this.closing && this.pendingReasoning === undefined) return '';
		const rest = (this.pendingReasoning ?? '') + this.spaces + this.text.slice(this.at);
		return this.started ? rest : rest.trimStart();
	}

	/** The text from `at` to `end`, without spaces that may come before an opening. */
	private take(end: number): string {
		let stop = end;
		while (stop > this.at && /\s/.test(this.text[stop - 1])) stop--;
		let start = this.at;
		// the chat's text starts with words, not with the spaces after reasoning
		if (!this.started) while (start < stop && /\s/.test(this.text[start])) start++;
		if (stop <= this.at) return '';
		this.at = stop;
		const spaces = this.started ? this.spaces : '';
		this.spaces = '';
		if (stop > start) this.started = true;
		return spaces + this.text.slice(start, stop);
	}

	private nextEvent(): Event | undefined {
		const text = this.text;
		for (let i = Math.max(this.at, this.scan); i < text.length; i++) {
			const char = text[i];
			if (this.codeFence) {
				// a closing fence: known at its line's end (spaces or a token after its run)
				if (char !== this.codeFence[0] || !this.lineStart(i)) continue;
				const closing = closingSoFar(text, i, this.codeFence);
				if (closing === undefined) return { kind: 'undecided', at: i };
				if (closing >= 0) [i, this.codeFence] = [closing - 1, undefined];
				if (closing >= 0) this.inline.skipTo(closing);
				continue;
			}
			if (REASONING_STARTS.has(char)) {
				const tag = REASONING.find((each) => text.startsWith(each, i));
				const verdict = tag ? this.reasoningVerdict(tag, i) : 'text';
				if (verdict === 'undecided') return { kind: 'undecided', at: i };
				if (verdict === 'call') return { kind: 'reasoning', at: i, tag: tag! };
				// a skipped tag not whole yet: told apart from a marker by what comes next
				const rest = text.slice(i, i + 64);
				if (REASONING.some((each) => each.length > rest.length && each.startsWith(rest)))
					return { kind: 'undecided', at: i };
			}
			const event = this.openingAt(i);
			if (event) return event;
		}
		this.scan = text.length;
		return undefined;
	}

	/**
	 * Whether a reasoning tag at `i` is one: an opening first or last on its line, a closing tag
	 * alone only at the end of its line (a tag in a sentence about it is prose); channels' tokens
	 * anywhere.
	 */
	private reasoningVerdict(tag: string, i: number): Verdict {
		const opening = OPENINGS.includes(tag);
		// harmony's tokens are no text a person writes: never code
		if (!opening && !CLOSINGS.includes(tag)) return 'call';
		if (this.inline.at(this.text, i)) return 'text';
		if (opening && this.lineStart(i)) return 'call';
		return endsLine(this.text.slice(i + tag.length, i + tag.length + 16));
	}

	/** Whether a call may open at `i`: pending, waited for, or undefined (it cannot). */
	private openingAt(i: number): Event | undefined {
		const text = this.text;
		const char = text[i];
		if (FENCE_CHARS.includes(char) && this.lineStart(i)) return this.fenceAt(i, char);
		const { markers, markerStarts, verdicts, patterned, opening } = this.openings;
		for (const marker of markerStarts.has(char) ? markers : []) {
			if (marker[0] !== char || !text.startsWith(marker, i) || this.inline.at(text, i)) continue;
			const window = text.slice(i, i + DECIDED_WITHIN);
			const verdict = verdicts.get(marker)!(window, this.lineStart(i), false);
			if (verdict !== 'text') return this.decided(verdict, i);
		}
		if (!this.calls || this.inline.at(text, i)) return undefined;
		for (const family of patterned) {
			if (!family.patternStarts!.includes(char)) continue;
			const verdict = family.patternVerdict!(text.slice(i, i + DECIDED_WITHIN));
			if (verdict !== 'text') return this.decided(verdict, i);
		}
		if (!/[\w{[]/.test(char) || !this.lineStart(i) || !this.callMayOpen(i)) return undefined;
		const window = text.slice(i, i + DECIDED_WITHIN);
		for (const family of opening) {
			const verdict = family.openingVerdict!(window, this.atAnswerStart(i), this.tools);
			if (verdict !== 'text') return this.decided(verdict, i);
		}
		return undefined;
	}

	/**
	 * A fence: pending where a call may open while its language and first line may make it one (the
	 * whole answer's fenced call), else let go as code, to its closing fence of the same run.
	 */
	private fenceAt(i: number, char: string): Event | undefined {
		const text = this.text;
		let run = i;
		while (text[run] === char) run++;
		if (run === text.length) return { kind: 'undecided', at: i };
		if (run - i < 3) return undefined;
		const lineEnd = text.indexOf('\n', i);
		if (lineEnd < 0 && text.length - i < DECIDED_WITHIN) return { kind: 'undecided', at: i };
		const opening = openingOf(text.slice(i, lineEnd < 0 ? undefined : lineEnd));
		if (!opening) return undefined;
		if (lineEnd < 0) return void (this.codeFence = opening.run);
		const language = opening.language.toLowerCase();
		let verdict: Verdict = 'text';
		if (this.calls && this.openings.callFences.includes(language)) verdict = 'call';
		else if (this.calls && this.callMayOpen(i)) {
			const content = text.slice(lineEnd + 1, lineEnd + 1 + DECIDED_WITHIN).trimStart();
			verdict = fencedVerdict(content, this.openings, this.tools);
		}
		return this.decided(verdict, i) ?? void (this.codeFence = opening.run);
	}

	private decided(verdict: Verdict, at: number): Event | undefined {
		if (verdict === 'text') return undefined;
		// undecided past its first line or key: pending as a call would be
		if (verdict === 'undecided' && this.text.length - at >= DECIDED_WITHIN)
			return { kind: 'pending', at };
		return { kind: verdict === 'call' ? 'pending' : 'undecided', at };
	}

	/** At a line's start, or at the answer's (right after reasoning). */
	private lineStart(i: number): boolean {
		return atLineStart(this.text, i) || this.atAnswerStart(i);
	}

	private atAnswerStart(i: number): boolean {
		return i - this.answerStart < LEAD_IN_CHARS && !this.text.slice(this.answerStart, i).trim();
	}

	/** Whether a call without a marker may open at `i`: the answer's start or after its lead-in. */
	private callMayOpen(i: number): boolean {
		return (
			i - this.answerStart <= LEAD_IN_CHARS * 2 && isLeadIn(this.text.slice(this.answerStart, i))
		);
	}
}
