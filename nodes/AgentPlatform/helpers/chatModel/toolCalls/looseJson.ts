/**
 * JSON as models write it: strict JSON, and the mistakes the serving stacks' parsers learned to
 * forgive (docs/chat-model.md, "Tool calls read"): trailing commas, single-quoted strings and
 * Python literals (`True`, `False`, `None`), bare keys, raw line breaks inside strings, and a
 * missing last closing brace or two where everything before them is whole. Only where a value
 * opens: an apostrophe inside a double-quoted string stays an apostrophe.
 */
import { fenceRunAt } from '../../output/codeFences';

export interface Parsed {
	value: unknown;
	/** The end (exclusive) of the value in the text. */
	end: number;
}

const LITERALS: Record<string, unknown> = {
	true: true,
	false: false,
	null: null,
	True: true,
	False: false,
	None: null,
};
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
/** How many closing braces or brackets may be missing at the end of the text. */
const MISSING_CLOSERS = 2;

class Failed extends Error {}
/** Thrown where the text is no value: one instance, so that a failure captures no stack. */
const FAILED = new Failed();
/** What a JSON value or a Python literal can start with. */
const VALUE_START = /^\s*(?:[{["'\d.-]|true|false|null|True|False|None)/;

class Reader {
	i: number;
	missing = 0;
	constructor(
		private readonly text: string,
		start: number,
		private readonly until: number,
	) {
		this.i = start;
	}

	private space() {
		while (this.i < this.until && /\s/.test(this.text[this.i])) this.i++;
	}

	/** At the end of the text, or where a tag or fence follows a value whose closer is missing. */
	private atEnd(): boolean {
		this.space();
		return this.i >= this.until || this.text[this.i] === '<' || !!fenceRunAt(this.text, this.i);
	}

	value(): unknown {
		this.space();
		const char = this.text[this.i];
		if (char === '{') return this.container('}');
		if (char === '[') return this.container(']');
		if (char === '"' || char === "'") return this.string(char);
		const word = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[A-Za-z_]\w*)/.exec(
			this.text.slice(this.i, this.i + 64),
		)?.[0];
		if (!word) throw FAILED;
		if (/^[-\d.]/.test(word)) {
			this.i += word.length;
			return Number(word);
		}
		if (!(word in LITERALS)) throw FAILED;
		this.i += word.length;
		return LITERALS[word];
	}

	private string(quote: string): string {
		let out = '';
		for (this.i++; this.i < this.until; this.i++) {
			const char = this.text[this.i];
			if (char === quote) {
				this.i++;
				return out;
			}
			if (char !== '\\') {
				out += char;
				continue;
			}
			const next = this.text[++this.i];
			if (next === 'u') {
				out += String.fromCharCode(parseInt(this.text.slice(this.i + 1, this.i + 5), 16));
				this.i += 4;
			} else out += ESCAPES[next] ?? next;
		}
		throw FAILED;
	}

	private key(): string {
		const char = this.text[this.i];
		if (char === '"' || char === "'") return this.string(char);
		const bare = /^[A-Za-z_$][\w$-]*/.exec(this.text.slice(this.i, this.i + 128))?.[0];
		if (!bare) throw FAILED;
		this.i += bare.length;
		return bare;
	}

	private container(closer: '}' | ']'): unknown {
		const object: Record<string, unknown> = {};
		const array: unknown[] = [];
		this.i++;
		for (;;) {
			this.space();
			if (this.text[this.i] === closer) {
				this.i++;
				return closer === '}' ? object : array;
			}
			if (closer === '}') {
				const key = this.key();
				this.space();
				if (this.text[this.i] !== ':') throw FAILED;
				this.i++;
				object[key] = this.value();
			} else array.push(this.value());
			this.space();
			if (this.text[this.i] === ',') this.i++;
			else if (this.text[this.i] !== closer) {
				// a whole value and then the end: the closer is missing
				if (!this.atEnd() || ++this.missing > MISSING_CLOSERS) throw FAILED;
				return closer === '}' ? object : array;
			}
		}
	}
}

/** The value that opens at `start`, read leniently; undefined where it cannot be read. */
export function parseLoose(text: string, start = 0, until = text.length): Parsed | undefined {
	try {
		const reader = new Reader(text, start, until);
		const value = reader.value();
		return { value, end: reader.i };
	} catch {
		// Failed, or a nesting too deep to read: no value here
		return undefined;
	}
}

/** The whole text as one value (surrounding space allowed), strict JSON first. */
export function parseWhole(text: string): { value: unknown } | undefined {
	if (!VALUE_START.test(text)) return undefined;
	try {
		return { value: JSON.parse(text) };
	} catch {
		const parsed = parseLoose(text);
		return parsed && !text.slice(parsed.end).trim() ? { value: parsed.value } : undefined;
	}
}
