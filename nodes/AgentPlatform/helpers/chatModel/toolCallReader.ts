/**
 * Reads a model's answer for tool calls written the ways models write them (docs/chat-model.md,
 * "Tool calls read"): the asked `{"tool_call": …}`, OpenAI's `{"name", "arguments"}` with the
 * arguments as a JSON string, Llama's `parameters`, Hermes' `<tool_call>` tags, a plural
 * `tool_calls`, an OpenAI function object, ReAct's `Action:` / `Action Input:`, fenced or with
 * prose around, one or several; arguments are checked and coerced against each tool's schema.
 */
import { validateJson, type JsonSchema } from '../output/jsonValidation';

export interface BoundTool {
	name: string;
	description: string;
	schema: JsonSchema;
}

export interface ToolCall {
	name: string;
	arguments: Record<string, unknown>;
}

export type ToolsAnswer =
	| { kind: 'calls'; prose: string; calls: ToolCall[] }
	| { kind: 'final'; text: string }
	| { kind: 'malformed'; problem: string };

/** A call as written: the name and arguments found, and where in the text it starts. */
interface WrittenCall {
	start: number;
	name: unknown;
	arguments: unknown;
}

interface JsonSpan {
	start: number;
	end: number;
	value?: unknown;
}

/** The end (exclusive) of the JSON object or array opening at `start`, strings respected. */
function balancedEnd(text: string, start: number): number | undefined {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') depth++;
		else if (char === '}' || char === ']') {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	return undefined;
}

/** Every top-level JSON object or array in the text; `value` absent where it does not parse. */
function jsonSpans(text: string): JsonSpan[] {
	const spans: JsonSpan[] = [];
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== '{' && text[i] !== '[') continue;
		const end = balancedEnd(text, i);
		if (end === undefined) {
			if (text[i] === '{') spans.push({ start: i, end: text.length });
			break;
		}
		try {
			spans.push({ start: i, end, value: JSON.parse(text.slice(i, end)) });
			i = end - 1;
		} catch {
			// `[see below]` or `{not json}` in prose: read on inside it
			if (text[i] === '{') spans.push({ start: i, end });
		}
	}
	return spans;
}

const CALL_KEYS = new Set(['name', 'arguments', 'parameters', 'args', 'input', 'id', 'type']);
const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The calls a JSON value writes, or undefined when it writes none (then it is an answer in JSON).
 * A bare `{"name", "arguments"}` counts only with no other keys and with arguments or a tool's
 * name, so that a JSON answer with a `name` field stays an answer.
 */
function callsOf(
	value: unknown,
	start: number,
	tools: BoundTool[],
	wrapped = false,
): WrittenCall[] | undefined {
	if (Array.isArray(value)) {
		const calls = value.map((item) => callsOf(item, start, tools, wrapped));
		return value.length && calls.every(Boolean) ? calls.flatMap((c) => c!) : undefined;
	}
	// `{"tool_call": "<name>"}`: a call without arguments
	if (typeof value === 'string' && wrapped) return [{ start, name: value, arguments: {} }];
	if (!isRecord(value)) return wrapped ? [{ start, name: undefined, arguments: value }] : undefined;
	if ('tool_call' in value) return callsOf(value.tool_call, start, tools, true);
	if (Array.isArray(value.tool_calls)) return callsOf(value.tool_calls, start, tools, true);
	if (isRecord(value.function) && 'name' in value.function)
		return [{ start, name: value.function.name, arguments: argumentsOf(value.function) }];
	const keys = Object.keys(value);
	const bareCall =
		typeof value.name === 'string' &&
		keys.every((key) => CALL_KEYS.has(key)) &&
		(keys.some((key) => ARGUMENT_KEYS.includes(key)) || !!toolNamed(value.name, tools));
	return wrapped || bareCall
		? [{ start, name: value.name, arguments: argumentsOf(value) }]
		: undefined;
}

function argumentsOf(call: Record<string, unknown>): unknown {
	for (const key of ARGUMENT_KEYS) if (call[key] !== undefined) return call[key];
	return {};
}

/** ReAct's `Action: <tool>` followed by `Action Input: <arguments>`. */
function reactCalls(text: string): WrittenCall[] {
	const pattern =
		/^[ \t]*Action[ \t]*:[ \t]*`?([^\n`]+?)`?[ \t]*\r?\n[ \t]*Action[ \t]+Input[ \t]*:[ \t]*([\s\S]*?)(?=^[ \t]*(?:Observation|Thought|Action|Final Answer)[ \t]*:|(?![\s\S]))/gim;
	return [...text.matchAll(pattern)].map((match) => {
		const input = match[2].trim().replace(/^```[a-z]*\s*|\s*```$/g, '');
		return { start: match.index, name: match[1].trim(), arguments: input };
	});
}

function toolNamed(name: unknown, tools: BoundTool[]): BoundTool | undefined {
	if (typeof name !== 'string') return undefined;
	const wanted = name.trim();
	return (
		tools.find((tool) => tool.name === wanted) ??
		tools.find((tool) => tool.name.toLowerCase() === wanted.toLowerCase())
	);
}

/** Arguments as the tool takes them: a JSON string parsed, a lone text given to a one-field tool. */
function argumentsFor(raw: unknown, tool: BoundTool): unknown {
	let value = raw ?? {};
	if (typeof value === 'string') {
		const text = value.trim();
		try {
			value = text ? JSON.parse(text) : {};
		} catch {
			value = text;
		}
	}
	const properties = Object.keys((tool.schema.properties as object | undefined) ?? {});
	if (!isRecord(value) && properties.length === 1) return { [properties[0]]: value };
	return value;
}

function checkedCall(written: WrittenCall, tools: BoundTool[]): ToolCall | string {
	const tool = toolNamed(written.name, tools);
	if (!tool) {
		const names = tools.map((t) => `"${t.name}"`).join(', ');
		return `there is no tool ${JSON.stringify(written.name ?? null)}; the tools are ${names}`;
	}
	const args = argumentsFor(written.arguments, tool);
	if (!isRecord(args)) return `the arguments of "${tool.name}" must be a JSON object`;
	const checked = validateJson(args, tool.schema);
	if (checked.problems.length)
		return `the arguments of "${tool.name}" do not match its schema: ${checked.problems.join('; ')}`;
	return { name: tool.name, arguments: checked.value as Record<string, unknown> };
}

/** The text before the first call, without the fence, tag or label that opens the call. */
function proseBefore(text: string, start: number): string {
	return text
		.slice(0, start)
		.replace(/(```[a-zA-Z]*|<tool_call>|<function_call>)\s*$/i, '')
		.trim();
}

/** Whether the text is an attempt at a call that could not be read (broken JSON, a lone tag). */
function brokenAttempt(text: string, spans: JsonSpan[]): string | undefined {
	const trimmed = text.trim();
	const broken = spans.find((span) => !('value' in span));
	const startsAsCall = /^(\{|```|<tool_call>)/.test(trimmed);
	const mentionsCall = /"tool_calls?"|<tool_call>/.test(trimmed);
	if (broken && (startsAsCall || mentionsCall)) {
		const piece = text.slice(broken.start, broken.end).trim();
		return `it is not valid JSON: ${piece.length > 120 ? `${piece.slice(0, 120)}…` : piece}`;
	}
	if (mentionsCall) return 'it names a tool call but holds no readable one';
	return undefined;
}

/** What the model's answer is: tool calls (with any prose before them), the final answer, or a broken call. */
export function readToolsAnswer(text: string, tools: BoundTool[]): ToolsAnswer {
	const spans = jsonSpans(text);
	// ReAct's arguments are JSON too: read them as the action's, not as calls of their own
	const react = reactCalls(text);
	const written = react.length
		? react
		: spans.flatMap((span) =>
				'value' in span ? (callsOf(span.value, span.start, tools) ?? []) : [],
			);
	if (!written.length) {
		const problem = brokenAttempt(text, spans);
		return problem ? { kind: 'malformed', problem } : { kind: 'final', text };
	}
	const calls: ToolCall[] = [];
	for (const call of written) {
		const checked = checkedCall(call, tools);
		if (typeof checked === 'string') return { kind: 'malformed', problem: checked };
		calls.push(checked);
	}
	return { kind: 'calls', prose: proseBefore(text, written[0].start), calls };
}

const CALL_OPENINGS = ['{', '[{', '[\n', '```', '<tool_call>', '<function_call>', 'Action:'];

/**
 * How much of a streamed answer can be shown now: the text before anything that may open a call
 * (a brace, a fence, a tag, ReAct's label), also when only its first characters have come yet.
 */
export function shownLength(text: string): number {
	let cut = text.length;
	for (const opening of CALL_OPENINGS) {
		const at = text.indexOf(opening);
		if (at >= 0 && at < cut) cut = at;
		for (let size = Math.min(opening.length - 1, text.length); size > 0; size--) {
			if (text.endsWith(opening.slice(0, size))) {
				cut = Math.min(cut, text.length - size);
				break;
			}
		}
	}
	return cut;
}
