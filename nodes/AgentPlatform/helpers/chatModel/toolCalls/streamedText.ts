/**
 * What of a streamed answer the chat may show as it comes, when tools are bound: prose is shown
 * as it arrives; from anything that may open a call (markers.ts) the rest is held until the whole
 * answer is read; reasoning (`<think>…</think>` and the like) is skipped, and the prose after it
 * shown again; a marker's first characters at the end, or spaces that may come before one, wait
 * for the next piece. Each piece is looked at once (plus a marker's length before it): linear in
 * the answer's length.
 */
import { CALL_OPENINGS } from './markers';
import { REASONING_TAGS } from './reasoning';

/** Openings of reasoning, and its closing tags alone (the opening was in the prompt): not shown. */
const REASONING = REASONING_TAGS.flat();
/** Harmony's tokens, which wrap reasoning and answer alike, with or without tools. */
const HARMONY = ['<|start|>', '<|channel|>'];
const closingOf = new Map(REASONING_TAGS);

interface Opening {
	at: number;
	opening: string;
	undecided?: boolean;
}

/**
 * Whether the `{` or `[` at `at` opens JSON or a pythonic call list (`{"`, `{'`, `{}`, `{key:`,
 * `[{`, `[[`, `["`, `[name(`, `[TOOL_CALLS]`), is prose (`{name}` in a template, `[1, 2]`,
 * `[the docs](…)`), or cannot be told yet (the text ends before it is clear).
 */
function opensJson(text: string, at: number): 'call' | 'prose' | 'undecided' {
	if (text[at] !== '{' && text[at] !== '[') return 'call';
	const after = text.slice(at + 1, at + 1 + 64);
	const call =
		text[at] === '{'
			? /^\s*(?:["'}]|[A-Za-z_$][\w$-]*\s*:)/
			: /^(?:\s*[{["']|TOOL_CALLS\]|\s*[A-Za-z_][\w.-]*\s*\()/;
	if (call.test(after)) return 'call';
	const open =
		text[at] === '{'
			? /^\s*(?:[A-Za-z_$][\w$-]*\s*)?$/
			: /^(?:\s*[A-Za-z_][\w.-]*\s*|TOOL_CALLS|TOOL_CALLS\]?)?$/;
	return open.test(after) && after.length < 64 ? 'undecided' : 'prose';
}

export class StreamedText {
	private readonly openings: string[];
	private readonly longest: number;
	private text = '';
	/** Where the text not yet shown or skipped starts. */
	private at = 0;
	/** The closing tag awaited inside reasoning. */
	private closing: string | undefined;
	private held = false;
	/** Where a brace or bracket waits for the characters that tell whether it opens a call. */
	private undecided = Infinity;
	private started = false;
	/** All that was shown, in order. */
	shown = '';

	/**
	 * `calls`: tools are bound, so anything that may open a call is held too. `reasoningUntil`: the
	 * answer starts inside reasoning whose opening tag was in the prompt (the model wrote only this
	 * closing tag before): nothing is shown until it comes.
	 */
	constructor(calls = true, reasoningUntil?: string) {
		this.openings = [...REASONING, ...(calls ? CALL_OPENINGS : HARMONY)];
		this.longest = Math.max(...this.openings.map((tag) => tag.length));
		this.closing = reasoningUntil;
	}

	/** Takes the next piece; returns what may be shown now ('' for nothing). */
	push(piece: string): string {
		const from = Math.max(this.at, Math.min(this.undecided, this.text.length - this.longest));
		this.undecided = Infinity;
		this.text += piece;
		let out = '';
		while (!this.held) {
			if (this.closing) {
				const end = this.text.indexOf(this.closing, Math.max(this.at, from));
				if (end < 0) break;
				this.at = end + this.closing.length;
				this.closing = undefined;
				continue;
			}
			const next = this.nextOpening(Math.max(this.at, from));
			if (!next) {
				out += this.take(this.text.length - this.partialOpening());
				break;
			}
			out += this.take(next.at);
			if (next.undecided) {
				// a brace or bracket whose next characters say what it opens have not come yet
				this.undecided = next.at;
				break;
			}
			this.at = next.at + next.opening.length;
			this.closing = closingOf.get(next.opening);
			// a closing tag alone is skipped; anything else but reasoning is held to the end
			this.held = !this.closing && !REASONING.includes(next.opening);
		}
		this.shown += out;
		return out;
	}

	/** The text from `at` to `end`, without spaces that may come before an opening. */
	private take(end: number): string {
		let stop = end;
		while (stop > this.at && /\s/.test(this.text[stop - 1])) stop--;
		let start = this.at;
		// the chat's text starts with words, not with the spaces after reasoning
		if (!this.started) while (start < stop && /\s/.test(this.text[start])) start++;
		this.at = stop;
		if (stop > start) this.started = true;
		return this.text.slice(start, stop);
	}

	private nextOpening(from: number): Opening | undefined {
		let first: Opening | undefined;
		for (const opening of this.openings) {
			let at = this.text.indexOf(opening, from);
			// a brace or bracket opens a call only where JSON or a pythonic call follows it
			let kind = at >= 0 ? opensJson(this.text, at) : 'call';
			while (at >= 0 && kind === 'prose') {
				at = this.text.indexOf(opening, at + 1);
				kind = at >= 0 ? opensJson(this.text, at) : 'call';
			}
			if (at >= this.at && (!first || at < first.at))
				first = { at, opening, undecided: kind === 'undecided' };
		}
		return first;
	}

	/** How many characters at the end may be the start of an opening. */
	private partialOpening(): number {
		const tail = this.text.slice(Math.max(this.at, this.text.length - this.longest));
		for (let size = tail.length; size > 0; size--) {
			const end = tail.slice(tail.length - size);
			if (this.openings.some((opening) => opening.length > size && opening.startsWith(end)))
				return size;
		}
		return 0;
	}
}
