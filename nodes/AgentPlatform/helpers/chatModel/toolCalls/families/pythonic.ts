/**
 * Calls in Python's syntax ("pythonic": Llama 3.2 / 4 and others, vLLM `pythonic_tool_parser.py`):
 * `[add(a=2, b=3), lookup(input='otter')]`, Python literals inside; Gemini's tool code
 * (```` ```tool_code ```` with `print(default_api.add(a=2))`). Keyword arguments only: `add(2, 3)`
 * in a sentence is code. Without the brackets only as the whole answer (a fenced block too).
 */
import { FENCE_CHARS, FENCE_OPENING, FENCE_RUN } from '../../../output/codeFences';
import { namesBoundTool } from '../arguments';
import { DECIDED_WITHIN } from '../openingVerdicts';
import { CALL_FENCES } from './blocks';
import { parseLoose } from '../looseJson';
import type { BoundTool, CallFamily, OpeningPlace, Verdict, WrittenCall } from '../types';

const NAME = /^[A-Za-z_][\w.-]*/;
/** Gemini's tool code, fenced with either fence character. */
const TOOL_CODE = FENCE_CHARS.map((char) => `${char.repeat(3)}tool_code`);

/** One `name(k=v, …)` at `at`: the call and where it ends, or undefined. */
function callAt(text: string, at: number): WrittenCall | undefined {
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
export function pythonCallsFrom(text: string, at: number, closer?: string): WrittenCall[] {
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
			const close = /^\s*\)/.exec(text.slice(call.end, call.end + 16))?.[0].length;
			if (!close) return closer ? [] : calls;
			call.end += close;
			call.start = i;
		}
		calls.push(call);
		i = call.end;
	}
}

const PYTHON_FENCES = ['python', 'py', 'python3', ...CALL_FENCES];
const CLOSING_FENCE = new RegExp(`^\\s*${FENCE_RUN}`);

/** `[name(…), …]` at `at`; as the whole answer also bare calls, fenced or not. */
function readOpening(text: string, at: number, place: OpeningPlace): WrittenCall[] {
	if (text[at] === '[') {
		const calls = pythonCallsFrom(text, at + 1, ']');
		return calls.map((call, n) => (n ? call : { ...call, start: at }));
	}
	const fence = FENCE_OPENING.exec(text.slice(at, at + 64));
	const language = fence?.[1].toLowerCase();
	if (fence && !(place.whole ? PYTHON_FENCES : CALL_FENCES).includes(language!)) return [];
	if (!fence && !place.whole) return [];
	const from = fence ? at + fence[0].length : at;
	const calls = pythonCallsFrom(text, from);
	if (!calls.length) return [];
	const close = fence
		? (CLOSING_FENCE.exec(text.slice(calls[calls.length - 1].end))?.[0].length ?? 0)
		: 0;
	calls[calls.length - 1].end += close;
	const rest = text.slice(calls[calls.length - 1].end);
	if (place.whole && rest.trim()) return [];
	calls[0] = { ...calls[0], start: at };
	return calls;
}

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
function pythonVerdict(text: string, tools: BoundTool[] | undefined): Verdict {
	const call = /^(?:print\s*\(\s*)?([A-Za-z_][\w.-]*)(\s*)(\(?)/.exec(text);
	if (!call)
		return text.length < 8 && /^(?:p(?:r(?:i(?:n(?:t(?:\s*\(?)?)?)?)?)?)?$/.test(text)
			? 'undecided'
			: 'text';
	const end = call[0].length;
	if (!call[3]) {
		const open = end >= text.length && end < DECIDED_WITHIN;
		const named = call[2] ? namesBoundTool(call[1], tools) : mayBecomeTool(call[1], tools);
		return open && named ? 'undecided' : 'text';
	}
	return namesBoundTool(call[1], tools) ? 'call' : 'text';
}

/** The stream's verdict: a call list where a call may open; bare calls only at the start. */
function openingVerdict(text: string, start: boolean, tools: BoundTool[] | undefined): Verdict {
	if (/^\[\s*[A-Za-z_]/.test(text)) return pythonVerdict(text.slice(1).trimStart(), tools);
	return start && /^[A-Za-z_]/.test(text) ? pythonVerdict(text, tools) : 'text';
}

export const pythonic: CallFamily = {
	name: 'pythonic',
	models: /llama[-_ ]?(?:3\.[23]|4)|gemini|gemma/i,
	markers: TOOL_CODE,
	markersMeanACall: true,
	read: (text, at) => {
		const calls: WrittenCall[] = [];
		for (const marker of TOOL_CODE)
			for (
				let fence = text.indexOf(marker, at);
				fence >= 0;
				fence = text.indexOf(marker, fence + 1)
			)
				calls.push(...readOpening(text, fence, { whole: false }));
		return calls.sort((a, b) => a.start - b.start);
	},
	readOpening: (text: string, at: number, place: OpeningPlace, _tools: BoundTool[]) =>
		readOpening(text, at, place),
	openingVerdict,
	callFences: ['tool_code'],
};
