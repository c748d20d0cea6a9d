/**
 * A written call checked against the tools n8n bound: the name found (in any letter case, without
 * a namespace such as `functions.` or `default_api.`, or Kimi's `:0` index), the arguments parsed
 * (a JSON string, even encoded twice), typed from the schema (XML's texts) and validated.
 */
import { validateJson } from '../../output/jsonValidation';
import { parseWhole } from './looseJson';
import { isRecord, type BoundTool, type ToolCall, type WrittenCall } from './types';

/** The bound tool a written name means, if any. */
export function toolNamed(name: unknown, tools: BoundTool[]): BoundTool | undefined {
	if (typeof name !== 'string') return undefined;
	const written = name.trim().replace(/^["'`]|["'`]$/g, '');
	const bare = written.replace(/:\d+$/, '').replace(/^(?:[\w-]+[.:])+/, '');
	for (const wanted of [written, bare]) {
		const found =
			tools.find((tool) => tool.name === wanted) ??
			tools.find((tool) => tool.name.toLowerCase() === wanted.toLowerCase());
		if (found) return found;
	}
	return undefined;
}

/** A text that holds JSON (an object, an array, or a string of it again), parsed; else the text. */
function parsedText(text: string): unknown {
	let value: unknown = text;
	for (let depth = 0; depth < 3 && typeof value === 'string'; depth++) {
		const trimmed = value.trim();
		if (!trimmed) return depth ? trimmed : {};
		if (!/^[{["]/.test(trimmed)) return value;
		const parsed = parseWhole(trimmed);
		if (!parsed) return value;
		value = parsed.value;
	}
	return value;
}

type Property = { type?: unknown };

/** An XML parameter's text as the schema's type wants it (numbers and yes/no are coerced later). */
function typedText(text: string, property: Property | undefined): unknown {
	const value = text.replace(/^\r?\n|\r?\n$/g, '');
	const types = [property?.type].flat().filter(Boolean);
	// GLM writes a string's value quoted at times: `<arg_value>"London"</arg_value>`
	if (types.includes('string'))
		return /^".*"$/s.test(value) ? (parseWhole(value)?.value ?? value) : value;
	const trimmed = value.trim();
	if (/^(?:null|None)$/.test(trimmed)) return null;
	if (/^(?:true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
	if (/^[{[]/.test(trimmed)) {
		const parsed = parseWhole(trimmed);
		if (parsed) return parsed.value;
	}
	return trimmed;
}

/** Arguments as the tool takes them: parsed, typed, and a lone value given to a one-field tool. */
function argumentsFor(written: WrittenCall, tool: BoundTool): unknown {
	const properties = (tool.schema.properties ?? {}) as Record<string, Property>;
	let value: unknown = written.arguments ?? {};
	if (typeof value === 'string') value = parsedText(value);
	if (written.xml && isRecord(value)) {
		value = Object.fromEntries(
			Object.entries(value).map(([key, text]) => [
				key,
				typeof text === 'string' ? typedText(text, properties[key]) : text,
			]),
		);
	}
	const names = Object.keys(properties);
	if (!isRecord(value) && names.length === 1) return { [names[0]]: value };
	return value;
}

export type UsableCall = { call: ToolCall } | { problem: string };

/** The call as n8n runs it, or what is wrong with it (for the correction round). */
export function usableCall(written: WrittenCall, tools: BoundTool[]): UsableCall {
	const tool = toolNamed(written.name, tools);
	if (!tool) {
		const names = tools.map((t) => `"${t.name}"`).join(', ');
		return {
			problem: `there is no tool ${JSON.stringify(written.name ?? null)}; the tools are ${names}`,
		};
	}
	const args = argumentsFor(written, tool);
	if (!isRecord(args)) return { problem: `the arguments of "${tool.name}" must be a JSON object` };
	const checked = validateJson(args, tool.schema);
	if (checked.problems.length)
		return {
			problem: `the arguments of "${tool.name}" do not match its schema: ${checked.problems.join('; ')}`,
		};
	return { call: { name: tool.name, arguments: checked.value as Record<string, unknown> } };
}

/**
 * Whether a name written in full is a bound tool's, for the stream, which keeps pending an opening only
 * while it may name one; `tools` undefined: any name may be (the tools are not known).
 */
export function namesBoundTool(written: string, tools: BoundTool[] | undefined): boolean {
	return !tools || !!toolNamed(written, tools);
}
