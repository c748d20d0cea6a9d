/**
 * Calls written as JSON, wherever they stand (bare, fenced, after `<|python_tag|>`,
 * `[TOOL_CALLS]` or `functools`, inside `<tool_call>`, `<tool_calls>`, `<TOOLCALL>`,
 * `<function_call>`, several in an array, one after another or separated by `;`): the asked
 * `{"tool_call": …}`, `{"name", "arguments" | "parameters"}`, OpenAI's `tool_calls` and
 * `function` / `function_call` objects (arguments as a JSON string), Anthropic's `tool_use` block,
 * Gemini's `functionCall`, LangChain's JSON agent `{"action", "action_input"}` (its
 * "Final Answer" action is the answer). JSON that writes no call is no call: a bare object counts
 * only with nothing but a name, arguments and call ids, and names a bound tool; with a call's own
 * pair of keys (`name` + `arguments` / `parameters`, `action` + `action_input`) and another name it
 * is a call to a tool that does not exist only beside a call of a bound tool.
 */
import { toolNamed } from './arguments';
import { parseLoose } from './looseJson';
import { markedAsCall } from './markers';
import { isRecord, type BoundTool, type WrittenCall } from './types';

interface JsonSpan {
	start: number;
	end: number;
	value?: unknown;
}

type Found = { name: unknown; arguments: unknown; weak?: boolean };

/** The end (exclusive) of the braces opening at `start`, strings respected; else the text's end. */
function balancedEnd(text: string, start: number): number {
	let depth = 0;
	let quote = '';
	for (let i = start; i < text.length; i++) {
		const char = text[i];
		if (quote) {
			if (char === '\\') i++;
			else if (char === quote) quote = '';
		} else if (char === '"') quote = char;
		else if (char === '{' || char === '[') depth++;
		else if ((char === '}' || char === ']') && --depth === 0) return i + 1;
	}
	return text.length;
}

/** Every top-level JSON value in the text that opens with `{` or `[`; `value` absent where broken. */
function jsonSpans(text: string): JsonSpan[] {
	const spans: JsonSpan[] = [];
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== '{' && text[i] !== '[') continue;
		const parsed = parseLoose(text, i);
		if (parsed) {
			spans.push({ start: i, end: parsed.end, value: parsed.value });
			i = parsed.end - 1;
		} else if (text[i] === '{') spans.push({ start: i, end: balancedEnd(text, i) });
	}
	return spans;
}

const WRAPPERS = [
	'tool_call',
	'tool_calls',
	'toolCall',
	'function_call',
	'functionCall',
	'tool_use',
];
const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'action'];
const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input', 'action_input', 'tool_input'];
const ID_KEYS = ['id', 'type', 'index', 'call_id', 'tool_call_id'];
const OWN_PAIRS = ['name arguments', 'name parameters', 'action action_input', 'tool tool_input'];
const FINAL_ACTION = /^final[ _]?answer$/i;

const isTextBlock = (item: unknown) => isRecord(item) && item.type === 'text';

function listCalls(items: unknown[], tools: BoundTool[], wrapped: boolean): Found[] | undefined {
	const meant = items.filter((item) => !isTextBlock(item));
	const calls = meant.map((item) => callsOf(item, tools, wrapped));
	return meant.length && calls.every(Boolean) ? calls.flatMap((c) => c!) : undefined;
}

/** The calls a JSON value writes, or undefined when it writes none (an answer in JSON). */
function callsOf(value: unknown, tools: BoundTool[], wrapped = false): Found[] | undefined {
	if (Array.isArray(value)) return listCalls(value, tools, wrapped);
	// `{"tool_call": "<name>"}`: a call without arguments
	if (typeof value === 'string' && wrapped) return [{ name: value, arguments: {} }];
	if (!isRecord(value)) return wrapped ? [{ name: undefined, arguments: value }] : undefined;
	const wrapper = WRAPPERS.find((key) => key in value);
	if (wrapper) return callsOf(value[wrapper], tools, true);
	// a message's content (Anthropic) or parts (Gemini): text blocks beside the calls
	for (const key of ['content', 'parts'])
		if (Array.isArray(value[key]) && value[key].some((item) => !isTextBlock(item)))
			return listCalls(value[key], tools, wrapped);
	// a whole API response echoed: OpenAI's choices[].message, Gemini's candidates[].content
	for (const key of ['choices', 'candidates']) {
		const items = value[key];
		if (Array.isArray(items) && items.length === 1 && isRecord(items[0])) {
			const inner = items[0].message ?? items[0].content;
			return isRecord(inner) ? callsOf(inner, tools, wrapped) : undefined;
		}
	}
	if (isRecord(value.function) && 'name' in value.function)
		return [{ name: value.function.name, arguments: argumentsOf(value.function) }];
	const nameKey = NAME_KEYS.find((key) => typeof value[key] === 'string');
	const argumentKey = ARGUMENT_KEYS.find((key) => key in value);
	if (!nameKey) return wrapped ? [{ name: undefined, arguments: argumentsOf(value) }] : undefined;
	if (nameKey === 'action' && FINAL_ACTION.test(String(value.action))) return undefined;
	const call = [{ name: value[nameKey], arguments: argumentsOf(value) }];
	if (wrapped) return call;
	const others = Object.keys(value).filter(
		(key) => key !== nameKey && key !== argumentKey && !ID_KEYS.includes(key),
	);
	if (others.length) return undefined;
	const bound = !!toolNamed(value[nameKey], tools);
	if (bound) return argumentKey || nameKey === 'name' ? call : undefined;
	const ownPair = !!argumentKey && OWN_PAIRS.includes(`${nameKey} ${argumentKey}`);
	return ownPair ? [{ ...call[0], weak: true }] : undefined;
}

function argumentsOf(call: Record<string, unknown>): unknown {
	for (const key of ARGUMENT_KEYS) if (call[key] !== undefined) return call[key];
	return {};
}

/** Calls written as JSON objects or arrays anywhere in the text. */
export function jsonCalls(text: string, tools: BoundTool[]): WrittenCall[] {
	return jsonSpans(text).flatMap((span) =>
		'value' in span
			? (callsOf(span.value, tools) ?? []).map((found) => ({
					...span,
					...found,
					weak: found.weak && !markedAsCall(text, span.start),
				}))
			: [],
	);
}

/** LangChain's JSON agent finishing: `{"action": "Final Answer", "action_input": "…"}`. */
export function finalAction(text: string): string | undefined {
	for (const span of jsonSpans(text)) {
		const value = span.value;
		if (!isRecord(value) || !FINAL_ACTION.test(String(value.action))) continue;
		const input = value.action_input;
		return typeof input === 'string' ? input : JSON.stringify(input);
	}
	return undefined;
}

const CALL_WORDS =
	/["'](?:tool_calls?|name|function(?:_call|Call)?|action|arguments|parameters)["']\s*:/;

/** The start of broken JSON that was meant as a call (it has a call's keys), if any. */
export function brokenJsonCall(text: string): string | undefined {
	const broken = jsonSpans(text).find((span) => !('value' in span));
	if (!broken) return undefined;
	const piece = text.slice(broken.start, broken.end).trim();
	if (!CALL_WORDS.test(piece)) return undefined;
	return piece.length > 120 ? `${piece.slice(0, 120)}…` : piece;
}
