/**
 * The values the emulator's stand-in gives a JSON schema (docs/emulator.md#structured-answers):
 * each field a value of its type, empty where the stand-in cannot know it, which is almost
 * everywhere, since it reads nothing of the text but words it can match as they are:
 *
 * - a string: `""`; one with a `format` (date, e-mail…), which `""` would not meet: as a number;
 * - a number, an integer, a boolean: only when required: the schema's `minimum` or `0`, `false`;
 * - an array: `[]`; an object: its properties, by these rules;
 * - an enum: the value the text names (as a whole word), else as a number, with its first value;
 * - `null` instead of all of these wherever the schema allows null;
 * - n8n's Text Classifier (a boolean per category): the category whose name and description share
 *   the most words with the text, else its `fallback` ("Other") where it has one, else none.
 *
 * Tool arguments take what the question gives instead (`givenArguments`): a string the words the
 * turn picked (its quoted words, else the question), numbers the question's numbers in order.
 */

export interface Property {
	type?: string | string[];
	enum?: unknown[];
	const?: unknown;
	items?: Property;
	properties?: Record<string, Property>;
	required?: string[];
	description?: string;
	minimum?: number;
	format?: string;
	anyOf?: Property[];
}

function typeOf(property: Property): string | undefined {
	const type = Array.isArray(property.type)
		? property.type.find((t) => t !== 'null')
		: property.type;
	if (type) return type;
	const branch = property.anyOf?.find((p) => p.type !== 'null');
	return branch ? typeOf(branch) : property.properties ? 'object' : undefined;
}

const nullable = (property: Property) =>
	(Array.isArray(property.type) && property.type.includes('null')) ||
	property.type === 'null' ||
	!!property.anyOf?.some((p) => p.type === 'null');

/** The text's words, lower case, as written: no stems, no synonyms. */
export function wordsOf(text: string): Set<string> {
	return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2));
}

// words of any sentence and of n8n's category descriptions, which say nothing of what a tool or a
// category is for
const COMMON = new Set(
	'the and for are but not you your with this that from has have was were its into when what which who how does will can could would should there their them they then than also only some more most each other returns return gives give tool tools uses using true input category description about'.split(
		' ',
	),
);

/** The words of a description that say what it is about: its words without the common ones. */
export const telling = (text: string) => [...wordsOf(text)].filter((w) => !COMMON.has(w));

/** The value the text names of an enum's values, if it names one. */
function namedIn(values: unknown[], text: string): unknown {
	const words = wordsOf(text);
	return values.find((v) => typeof v === 'string' && words.has(v.toLowerCase()));
}

/** A value of the field's type that says nothing; undefined: leave the field out. */
export function emptyValue(property: Property, required: boolean, text = ''): unknown {
	if ('const' in property) return property.const;
	if (property.enum?.length) {
		const named = namedIn(property.enum, text);
		if (named !== undefined) return named;
		return nullable(property) ? null : required ? property.enum[0] : undefined;
	}
	if (nullable(property)) return null;
	const type = typeOf(property);
	if (type === 'object') return structuredValue(property, text);
	if (type === 'array') return [];
	if (type === 'string' && !property.format) return '';
	if (!required) return undefined;
	if (type === 'number' || type === 'integer') return Math.max(property.minimum ?? 0, 0);
	if (type === 'boolean') return false;
	return type === 'string' ? '' : null;
}

const CATEGORY = /category "([^"]*)"(?: \(description: ([^)]*)\))?/;

/** n8n's Text Classifier: the category sharing the most words with the text (see the head). */
function classified(properties: Record<string, Property>, text: string) {
	const entries = Object.entries(properties);
	const categories = entries.filter(([, p]) => CATEGORY.test(p.description ?? ''));
	if (!categories.length || categories.length !== entries.filter(([n]) => n !== 'fallback').length)
		return undefined;
	const said = wordsOf(text);
	const shared = categories.map(([name, p]) => {
		const [, category, description] = CATEGORY.exec(p.description ?? '')!;
		const words = telling(`${category} ${description ?? ''}`);
		return { name, count: words.filter((w) => said.has(w)).length };
	});
	const best = shared.reduce((a, b) => (b.count > a.count ? b : a));
	const value: Record<string, boolean> = Object.fromEntries(entries.map(([n]) => [n, false]));
	if (best.count > 0) value[best.name] = true;
	else if ('fallback' in value) value.fallback = true;
	return value;
}

/** The stand-in's structured answer to a schema, about `text`. */
export function structuredValue(schema: Property, text: string): unknown {
	if (typeOf(schema) !== 'object') return emptyValue(schema, true, text);
	const properties = schema.properties ?? {};
	const categories = classified(properties, text);
	if (categories) return categories;
	const value: Record<string, unknown> = {};
	for (const [name, property] of Object.entries(properties)) {
		const found = emptyValue(property, !!schema.required?.includes(name), text);
		if (found !== undefined) value[name] = found;
	}
	return value;
}

/** What a question gives a tool's arguments: texts (each once, the last again) and numbers. */
export interface Given {
	texts: string[];
	numbers: number[];
}

/** A tool's arguments: strings and numbers from what the question gives, the rest empty. */
export function givenArguments(schema: Property, given: Given, text: string): unknown {
	const take = <T>(list: T[]) => (list.length > 1 ? list.shift() : list[0]);
	const fill = (property: Property, required: boolean): unknown => {
		const type = typeOf(property);
		if (property.enum?.length) return emptyValue(property, required, text);
		if (type === 'string' && given.texts.length) return take(given.texts);
		if ((type === 'number' || type === 'integer') && given.numbers.length)
			return given.numbers.shift();
		if (type === 'object') {
			const value: Record<string, unknown> = {};
			for (const [name, p] of Object.entries(property.properties ?? {})) {
				const found = fill(p, !!property.required?.includes(name));
				if (found !== undefined) value[name] = found;
			}
			return value;
		}
		if (type === 'array') return [fill(property.items ?? { type: 'string' }, true)];
		return emptyValue(property, required, text);
	};
	return fill(schema.properties ? schema : { ...schema, type: 'object' }, true);
}
