/**
 * Calls in Python's syntax ("pythonic", as Llama 3.2 / 4 and others write them):
 * `[add(a=2, b=3), lookup(input='otter')]`, Python literals inside (`True`, `None`, single
 * quotes, dicts, lists); without the brackets only after `<|python_start|>` / `<|python_tag|>`,
 * inside `<function_calls>` or a ```` ```tool_code ```` fence (Gemini's, with `print(…)` around),
 * or as the whole answer. Keyword arguments only: `add(2, 3)` in a
 * sentence is code shown to the user, not a call.
 */
import { parseLoose } from './looseJson';
import type { WrittenCall } from './types';

const NAME = /^[A-Za-z_][\w.-]*/;

/** One `name(k=v, …)` at `at`: the call and where it ends, or undefined. */
function callAt(text: string, at: number): (WrittenCall & { end: number }) | undefined {
	const name = NAME.exec(text.slice(at, at + 128))?.[0];
	if (!name) return undefined;
	let i = at + name.length;
	const space = () => {
		while (/\s/.test(text[i] ?? '')) i++;
	};
	space();
	if (text[i] !== '(') return undefined;
	i++;
	const args: Record<string, unknown> = {};
	for (;;) {
		space();
		if (text[i] === ')') return { start: at, end: i + 1, name, arguments: args };
		const key = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 128))?.[0];
		if (!key) return undefined;
		i += key.length;
		space();
		if (text[i] !== '=') return undefined;
		const value = parseLoose(text, i + 1);
		if (!value) return undefined;
		args[key] = value.value;
		i = value.end;
		space();
		if (text[i] === ',') i++;
		else if (text[i] !== ')') return undefined;
	}
}

/** Calls one after another from `at`, separated by commas, semicolons or line breaks. */
function callsFrom(text: string, at: number, closer?: string): WrittenCall[] {
	const calls: WrittenCall[] = [];
	let i = at;
	for (;;) {
		while (/[\s,;]/.test(text[i] ?? '')) i++;
		if (closer && text[i] === closer) {
			if (calls.length) calls[calls.length - 1].end = i + 1;
			return calls;
		}
		// Gemini's tool code: print(default_api.add(a=2))
		const print = /^print\s*\(\s*/.exec(text.slice(i, i + 16))?.[0].length ?? 0;
		const call = callAt(text, i + print);
		if (!call) return closer ? [] : calls;
		if (print) {
			const close = /^\s*\)/.exec(text.slice(call.end))?.[0].length;
			if (!close) return closer ? [] : calls;
			call.end += close;
			call.start = i;
		}
		calls.push(call);
		i = call.end;
	}
}

const OPENERS =
	/<\|python_start\|>|<\|python_tag\|>|<function_calls>|```(?:tool_code|python|py|tool_call)[ \t]*\n/g;

export function pythonCalls(text: string): WrittenCall[] {
	const found: WrittenCall[] = [];
	for (const match of text.matchAll(/\[\s*(?=[A-Za-z_][\w.-]*\s*\()/g)) {
		const calls = callsFrom(text, match.index + 1, ']');
		if (calls.length)
			found.push(...calls.map((call, n) => (n ? call : { ...call, start: match.index })));
	}
	if (found.length) return found;
	for (const match of text.matchAll(OPENERS))
		found.push(...callsFrom(text, match.index + match[0].length));
	if (found.length) return found;
	const whole = callsFrom(text, 0);
	const last = whole[whole.length - 1];
	return last && !text.slice(last.end).trim() ? whole : [];
}
