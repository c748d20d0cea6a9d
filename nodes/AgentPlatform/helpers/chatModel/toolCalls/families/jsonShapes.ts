/**
 * The JSON shapes of a call, shared by the families that write calls as JSON (bare, or after a
 * tag or token of theirs): the asked `{"tool_call": …}`, `{"name", "arguments" | "parameters"}`,
 * OpenAI's `tool_calls` and `function` / `function_call` objects (arguments as a JSON string),
 * Anthropic's `tool_use` block, Gemini's `functionCall`, LangChain's `{"action", "action_input"}`
 * ("Final Answer" is the answer). JSON that writes no call is no call: a bare object counts only
 * with nothing but a name, arguments and call ids.
 */
import { FENCE_LANGUAGE, FENCE_RUN } from '../../../output/codeFences';
import { namesBoundTool, toolNamed } from '../arguments';
import { parseLoose } from '../looseJson';
import { isRecord, type BoundTool, type Verdict } from '../types';

export type JsonCall = { name: unknown; arguments: unknown; mayBeData?: boolean };

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
/**
 * The first keys of a call's JSON in any shape read (the stream keeps pending such an object); arguments
 * first too, as serialisers that sort keys write them.
 */
const FIRST_KEYS = [
	...WRAPPERS,
	...ARGUMENT_KEYS,
	...NAME_KEYS,
	...ID_KEYS,
	'role',
	'content',
	'parts',
	'choices',
	'candidates',
];

const isTextBlock = (item: unknown) => isRecord(item) && item.type === 'text';

function listCalls(items: unknown[], tools: BoundTool[], wrapped: boolean): JsonCall[] | undefined {
	const meant = items.filter((item) => !isTextBlock(item));
	const calls = meant.map((item) => callsOf(item, tools, wrapped));
	return meant.length && calls.every(Boolean) ? calls.flatMap((c) => c!) : undefined;
}

function argumentsOf(call: Record<string, unknown>): unknown {
	for (const key of ARGUMENT_KEYS) if (call[key] !== undefined) return call[key];
	return {};
}

/**
 * Whether arguments are a JSON Schema of parameters (a tool's definition the person asked for),
 * not values: an object schema, where the tool takes no `properties` argument of its own.
 */
function definesParameters(args: unknown, tool: BoundTool | undefined): boolean {
	if (!isRecord(args) || args.type !== 'object' || !isRecord(args.properties)) return false;
	const properties = tool?.schema.properties;
	return !isRecord(properties) || !('properties' in properties);
}

/** The calls a JSON value writes, or undefined when it writes none (an answer in JSON). */
export function callsOf(
	value: unknown,
	tools: BoundTool[],
	wrapped = false,
): JsonCall[] | undefined {
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
	const call = { name: value[nameKey], arguments: argumentsOf(value) };
	if (wrapped) return [call];
	if (definesParameters(call.arguments, toolNamed(call.name, tools))) return undefined;
	const others = Object.keys(value).filter(
		(key) => key !== nameKey && key !== argumentKey && !ID_KEYS.includes(key),
	);
	if (others.length) return undefined;
	if (toolNamed(value[nameKey], tools))
		return argumentKey || nameKey === 'name' ? [call] : undefined;
	const ownPair = !!argumentKey && OWN_PAIRS.includes(`${nameKey} ${argumentKey}`);
	return ownPair ? [{ ...call, mayBeData: true }] : undefined;
}

/** Whether the value is in a protocol's own wrapper (the asked `tool_call`, LangChain's `action`). */
export function inOwnWrapper(value: unknown): boolean {
	return (
		isRecord(value) && ('tool_call' in value || ('action' in value && 'action_input' in value))
	);
}

/** LangChain's JSON agent finishing: `{"action": "Final Answer", "action_input": "…"}`. */
export function finalActionOf(value: unknown): string | undefined {
	if (!isRecord(value) || !FINAL_ACTION.test(String(value.action))) return undefined;
	const input = value.action_input;
	return typeof input === 'string' ? input : JSON.stringify(input);
}

const OPENING = new RegExp(`^\\s*(?:${FENCE_RUN}${FENCE_LANGUAGE}\\s*)?`);
const CLOSING = new RegExp(`^\\s*(?:${FENCE_RUN})?`);

/** The JSON value at `at` (spaces and a fence allowed before it), and where it ends with its fence. */
export function jsonAt(text: string, at: number): { value: unknown; end: number } | undefined {
	const open = OPENING.exec(text.slice(at, at + 32))![0].length;
	if (text[at + open] !== '{' && text[at + open] !== '[') return undefined;
	const parsed = parseLoose(text, at + open);
	if (!parsed) return undefined;
	const close = CLOSING.exec(text.slice(parsed.end, parsed.end + 32))![0].length;
	return { value: parsed.value, end: parsed.end + close };
}

const KEY = /^\s*(?:"([^"\\]*)"|'([^'\\]*)'|([A-Za-z_$][\w$-]*))\s*(:)?\s*/;
const STRING_VALUE = /^(?:"([^"\\]*)"|'([^'\\]*)')/;

/**
 * Whether JSON opening at the start of `text` (a `{` or `[`) may still be a call, decided at its
 * first key (and a name's value): 'undecided' while the text stops before that. `ownOnly`: only a
 * protocol's own wrapper counts (a fenced block after prose).
 */
export function jsonVerdict(
	text: string,
	tools: BoundTool[] | undefined,
	ownOnly: boolean,
): Verdict {
	let at = 1;
	while (at < text.length && /\s/.test(text[at])) at++;
	if (at >= text.length) return 'undecided';
	if (text[0] === '[')
		return text[at] === '{' ? jsonVerdict(text.slice(at), tools, ownOnly) : 'text';
	if (text[at] === '}') return 'text';
	const key = KEY.exec(text.slice(at, at + 96));
	if (!key?.[4]) return keyPending(text, at);
	const name = key[1] ?? key[2] ?? key[3];
	if (ownOnly) return name === 'tool_call' || name === 'action' ? 'call' : 'text';
	if (!FIRST_KEYS.includes(name)) return 'text';
	if (!['name', 'tool', 'tool_name', 'action', 'type', 'role'].includes(name)) return 'call';
	const after = text.slice(at + key[0].length, at + key[0].length + 96);
	if (!after) return 'undecided';
	const value = STRING_VALUE.exec(after);
	if (!value) return /^["']/.test(after) && after.length < 96 ? 'undecided' : 'text';
	const written = value[1] ?? value[2];
	if (name === 'type')
		return /^(?:tool_use|function|function_call)$/.test(written) ? 'call' : 'text';
	if (name === 'role') return written === 'assistant' ? 'call' : 'text';
	if (name === 'action' && FINAL_ACTION.test(written)) return 'call';
	return namesBoundTool(written, tools) ? 'call' : 'text';
}

/** A key not yet whole: wait while what came may still be one, else it is no JSON of a call. */
function keyPending(text: string, at: number): Verdict {
	const rest = text.slice(at, at + 96);
	return /^(?:"[^"\\]*|'[^'\\]*|[A-Za-z_$][\w$-]*\s*|"[^"\\]*"\s*|'[^'\\]*'\s*)$/.test(rest) &&
		rest.length < 96
		? 'undecided'
		: 'text';
}
