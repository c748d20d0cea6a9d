import type { OutputUnit, Schema } from '@cfworker/json-schema';
import { Validator } from '@cfworker/json-schema';

import { fencesOf } from './codeFences';

/**
 * JSON answers checked against a JSON Schema: the JSON found in an agent's text, validated by a
 * maintained JSON Schema validator (@cfworker/json-schema, bundled into dist/vendor), with only
 * the harmless coercions made and listed. See docs/structured-output.md.
 */
export type JsonSchema = Record<string, unknown>;

export type Extracted = { ok: true; value: unknown } | { ok: false; problem: string };

function parses(text: string): Extracted | undefined {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return undefined;
	}
}

/**
 * The JSON in an answer: a fenced block (codeFences.ts: any language, backticks or tildes), else
 * the whole text, else the span from the first `{` or `[` to the last `}` or `]` (text around it).
 */
export function extractJson(text: string): Extracted {
	const trimmed = text.trim();
	if (!trimmed) return { ok: false, problem: 'The answer is empty: no JSON found' };
	for (const fence of fencesOf(trimmed)) {
		const found = parses(trimmed.slice(fence.contentStart, fence.contentEnd).trim());
		if (found) return found;
	}
	const whole = parses(trimmed);
	if (whole) return whole;
	const start = trimmed.search(/[{[]/);
	const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
	if (start >= 0 && end > start) {
		const inner = parses(trimmed.slice(start, end + 1));
		if (inner) return inner;
	}
	return {
		ok: false,
		problem: `The answer is not valid JSON: ${trimmed.length > 120 ? `${trimmed.slice(0, 120)}…` : trimmed}`,
	};
}

/** A JSON Schema describing the example: every key required, types as in the example. */
export function schemaFromExample(example: unknown): JsonSchema {
	if (Array.isArray(example)) {
		return { type: 'array', items: example.length ? schemaFromExample(example[0]) : {} };
	}
	if (example === null) return {};
	if (typeof example === 'object') {
		const record = example as Record<string, unknown>;
		const properties: Record<string, JsonSchema> = {};
		for (const [key, value] of Object.entries(record)) properties[key] = schemaFromExample(value);
		return { type: 'object', properties, required: Object.keys(record) };
	}
	if (typeof example === 'number') return { type: 'number' };
	if (typeof example === 'boolean') return { type: 'boolean' };
	return { type: 'string' };
}

/** Checks that the schema is one the validator can use; throws its words otherwise. */
export function checkSchema(schema: unknown): JsonSchema {
	if (typeof schema === 'boolean') return schema ? {} : { not: {} };
	if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
		throw new Error('a JSON Schema is a JSON object, e.g. {"type": "object", "properties": {…}}');
	}
	new Validator(schema as Schema, '2020-12', false).validate(null);
	return schema as JsonSchema;
}

/** `#/items/0/name` → `items[0].name`; the root is "the answer". */
export function displayPath(instanceLocation: string): string {
	const parts = instanceLocation
		.replace(/^#\/?/, '')
		.split('/')
		.filter((part) => part !== '')
		.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
	if (!parts.length) return 'the answer';
	return parts.reduce(
		(path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
		'',
	);
}

/** Errors that only say "a part below did not match": the part's own error follows. */
const WRAPPER_KEYWORDS = new Set([
	'properties',
	'items',
	'prefixItems',
	'allOf',
	'$ref',
	'$dynamicRef',
	'false',
]);

function pointerGet(root: unknown, pointer: string): unknown {
	let current = root;
	for (const raw of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
		const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[part];
	}
	return current;
}

function pointerSet(root: unknown, pointer: string, value: unknown): unknown {
	const parts = pointer.replace(/^#\/?/, '').split('/').filter(Boolean);
	if (!parts.length) return value;
	const parent = pointerGet(root, `#/${parts.slice(0, -1).join('/')}`) as Record<string, unknown>;
	parent[
		decodeURIComponent(parts[parts.length - 1])
			.replace(/~1/g, '/')
			.replace(/~0/g, '~')
	] = value;
	return root;
}

/** The harmless cases only: a number or a yes/no written as text, a number where text is wanted. */
function coerce(value: unknown, wanted: string[]): { ok: true; value: unknown } | undefined {
	if (typeof value === 'string') {
		const text = value.trim();
		if (
			(wanted.includes('number') || wanted.includes('integer')) &&
			/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)
		) {
			const number = Number(text);
			if (Number.isFinite(number) && (wanted.includes('number') || Number.isInteger(number)))
				return { ok: true, value: number };
		}
		if (wanted.includes('boolean') && (text === 'true' || text === 'false'))
			return { ok: true, value: text === 'true' };
	}
	if (
		wanted.includes('string') &&
		((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
	) {
		return { ok: true, value: String(value) };
	}
	return undefined;
}

export interface Validated {
	value: unknown;
	/** Each problem, "<path>: <what is wrong>". Empty when the value is valid. */
	problems: string[];
	/** Each coercion made, "<path>: "8" → 8". */
	coercions: string[];
}

/** Validates, coercing the harmless cases (each listed) until nothing more can be coerced. */
export function validateJson(value: unknown, schema: JsonSchema): Validated {
	const validator = new Validator(schema as Schema, '2020-12', false);
	const coercions: string[] = [];
	let current: unknown = JSON.parse(JSON.stringify(value ?? null));
	for (let round = 0; round < 50; round++) {
		const result = validator.validate(current);
		if (result.valid) return { value: current, problems: [], coercions };
		const errors = result.errors.filter(
			(error: OutputUnit) => !WRAPPER_KEYWORDS.has(error.keyword),
		);
		let changed = false;
		for (const error of errors) {
			if (error.keyword !== 'type') continue;
			const wantedRaw = pointerGet(schema, error.keywordLocation);
			const wanted = (Array.isArray(wantedRaw) ? wantedRaw : [wantedRaw]).map(String);
			const before = pointerGet(current, error.instanceLocation);
			const after = coerce(before, wanted);
			if (!after) continue;
			current = pointerSet(current, error.instanceLocation, after.value);
			coercions.push(
				`${displayPath(error.instanceLocation)}: ${JSON.stringify(before)} → ${JSON.stringify(after.value)}`,
			);
			changed = true;
		}
		if (!changed) {
			const problems = [
				...new Set(errors.map((error) => `${displayPath(error.instanceLocation)}: ${error.error}`)),
			];
			return { value: current, problems, coercions };
		}
	}
	return { value: current, problems: ['the answer: too many coercions'], coercions };
}
