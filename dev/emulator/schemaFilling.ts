/**
 * How the emulator's scripted model fills a JSON Schema from a text, as a real model would for a
 * simple, unambiguous text (toolsProtocolModel.ts uses it for tool arguments, structured answers,
 * extraction, classification and sentiment). Deterministic reading by rules, not a model: a
 * property's name and description say what to look for (a person's name, a place, an age, an
 * e-mail address, a date); booleans that each stand for a category (n8n's Text Classifier) are set
 * for the one category the text fits best, by shared words and by tone; an enum takes the value the
 * text names, else the one whose tone matches; a bounded score compares the two texts it is given
 * ("Output: …" / "Ground truth: …"). Anything else takes the text's numbers in order and its quoted
 * words.
 */

import { kindOf, readKind } from './fieldKinds';

export interface Property {
	type?: string | string[];
	enum?: unknown[];
	items?: Property;
	properties?: Record<string, Property>;
	description?: string;
	minimum?: number;
	maximum?: number;
	anyOf?: Property[];
	format?: string;
	required?: string[];
}

/** What a schema is filled from: the text, and the numbers and quoted words not used yet. */
export interface Source {
	text: string;
	numbers: number[];
	texts: string[];
	/**
	 * A structured answer (format instructions): a field takes only a value of its kind found in
	 * the text (fieldKinds.ts), else nothing. Tool arguments are read loosely from the question.
	 */
	strict?: boolean;
	/** names already given to other fields of the answer */
	taken?: string[];
}

const POSITIVE =
	/\b(good|great|love|loved|lovely|excellent|amazing|wonderful|fantastic|happy|glad|thanks?|perfect|best|praise\w*|brilliant|pleased|delighted|awesome|nice|recommend\w*|helpful|friendly|fast|positive|kind|enjoy\w*|superb|outstanding|thrilled|impressed|satisf\w*|well done|beautiful)\b/gi;
const NEGATIVE =
	/\b(bad|broken|terrible|awful|horrible|worst|hate|angry|disappointed|disappointing|refund|complain\w*|late|never|nobody|poor|slow|rude|wrong|damaged|problem|issue|unhappy|useless|negative|fail\w*|missing|cancel\w*|annoy\w*|frustrat\w*|upset|furious|unacceptable|stopped|waste\w*|dirty|overcharged|faulty|lost|sad)\b/gi;
// "not good", "didn't work": a positive word after a negation counts as negative
const NEGATED =
	/\b(?:not|no|never|isn't|wasn't|aren't|don't|didn't|doesn't|won't|can't|cannot)\s+(?:\w+\s+)?(?:good|great|happy|helpful|satisfied|working|work|works|fast|nice|recommend)\b/gi;

/** The text's tone: above 0 positive, below 0 negative. */
function toneOf(text: string): number {
	const plain = text.replace(NEGATED, ' bad ');
	return (plain.match(POSITIVE)?.length ?? 0) - (plain.match(NEGATIVE)?.length ?? 0);
}

const STOP = new Set(
	'a an and are as at be by for from has have in is it its of on or that the this to was were with should true if input category description'.split(
		' ',
	),
);

// what a text is about, beyond its own words: a how-to question asks for support, a price for sales
const CONCEPTS: Array<[RegExp, string]> = [
	[
		/\bhow (?:do|can|should|to)\b|\bhow-to\b|\bwhere (?:do|can) i\b|\bset ?up\b|\bconfigur\w*|\bsteps?\b/i,
		'howto support help question',
	],
	[
		/\b(?:password|log ?in|sign ?in|error|bug|crash\w*|not working|doesn'?t work|won'?t|broken|stuck|fails?|failed|outage|down|install\w*|reset|sync\w*|export\w*|import\w*|integrat\w*)\b/i,
		'technical problem support help',
	],
	[
		/\b(?:price|pricing|cost|quote|discount|plan|plans|upgrade|buy|purchase|licen[cs]e|seats|demo|trial|enterprise|offer|deal)\b/i,
		'sales pricing purchase',
	],
	[
		/\b(?:invoice|billing|billed|charge[ds]?|payment|refund|receipt|vat|overcharged|paid|subscription fee)\b/i,
		'billing payment invoice',
	],
	[
		/\b(?:deliver\w*|shipping|shipped|parcel|package|tracking|courier|arriv\w*)\b/i,
		'shipping delivery order',
	],
	[/\b(?:job|hiring|career|resume|cv|position|apply|application)\b/i, 'job career hr'],
	[
		/\b(?:unsubscribe|newsletter|winner|prize|click here|limited time|act now|free money)\b/i,
		'spam marketing',
	],
	[
		/\b(?:feature|would be nice|suggest\w*|wish|idea|could you add|please add)\b/i,
		'feature request suggestion idea',
	],
];

function words(text: string): Set<string> {
	const concepts = CONCEPTS.filter(([pattern]) => pattern.test(text)).map(([, added]) => added);
	return new Set(
		(`${text} ${concepts.join(' ')}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
			.filter((w) => !STOP.has(w))
			.map((w) => w.replace(/s$/, '')),
	);
}

/** How far the words of `b` are in `a`: 0 to 1. */
function overlap(a: string, b: string): number {
	const wa = words(a);
	const wb = [...words(b)];
	if (!wb.length || !wa.size) return 0;
	return wb.filter((w) => wa.has(w)).length / Math.min(wb.length, wa.size);
}

/** How well a category (its name and description) fits the text: shared words, then tone. */
function fit(text: string, category: string): number {
	return overlap(text, category) * 2 + Math.sign(toneOf(text)) * Math.sign(toneOf(category));
}

const CATEGORY = /category "([^"]*)"(?: \(description: ([^)]*)\))?/;

/** Booleans that stand each for a category (n8n's Text Classifier): the one that fits set. */
function classified(properties: Record<string, Property>, text: string) {
	const entries = Object.entries(properties);
	const categories = entries.filter(([, p]) => CATEGORY.test(p.description ?? ''));
	if (!categories.length || categories.length !== entries.filter(([n]) => n !== 'fallback').length)
		return undefined;
	const scored = categories.map(([name, p]) => {
		const [, category, description] = CATEGORY.exec(p.description ?? '') ?? [];
		return { name, score: fit(text, `${category ?? name} ${description ?? ''}`) };
	});
	const best = scored.reduce((a, b) => (b.score > a.score ? b : a));
	const value: Record<string, unknown> = {};
	for (const [name] of entries) value[name] = false;
	if (best.score > 0 || !('fallback' in properties)) value[best.name] = true;
	else value.fallback = true;
	return value;
}

function enumValue(values: unknown[], text: string): unknown {
	const lower = text.toLowerCase();
	const named = values.find((v) => lower.includes(String(v).toLowerCase()));
	if (named !== undefined) return named;
	const tone = Math.sign(toneOf(text));
	const toned = values.find((v) => Math.sign(toneOf(String(v))) === tone && tone !== 0);
	if (toned !== undefined) return toned;
	return values.find((v) => /neutral|other|none/i.test(String(v))) ?? values[0];
}

/** Two labelled parts of the text ("Output: …" and "Ground truth: …"), as a judge compares them. */
function comparedParts(text: string): [string, string] | undefined {
	const parts = text
		.split(/\n\s*\n/)
		.map((part) => /^[\w -]{1,30}:\s*([\s\S]+)$/.exec(part.trim())?.[1])
		.filter((part): part is string => !!part);
	return parts.length >= 2 ? [parts[0], parts[1]] : undefined;
}

function boundedNumber(property: Property, key: string, from: Source): number | undefined {
	const { minimum: min, maximum: max } = property;
	if (min === undefined || max === undefined) return undefined;
	const fits = from.numbers.findIndex((n) => n >= min && n <= max);
	const compared = /score|rating|similar/i.test(`${key} ${property.description ?? ''}`)
		? comparedParts(from.text)
		: undefined;
	const share = compared
		? overlap(compared[1], compared[0])
		: fits >= 0
			? undefined
			: Math.min(1, 0.5 + Math.abs(toneOf(from.text)) * 0.2);
	if (share === undefined) return from.numbers.splice(fits, 1)[0];
	const value = min + share * (max - min);
	return typeOf(property) === 'integer' || /integer/i.test(property.description ?? '')
		? Math.round(value)
		: Math.round(value * 100) / 100;
}

function numberFor(property: Property, key: string, from: Source): number {
	const bounded = boundedNumber(property, key, from);
	if (bounded !== undefined) return bounded;
	if (/\bage\b|years?/i.test(`${key} ${property.description ?? ''}`)) {
		const age = /(\d+)[\s-]*(?:years?|yrs?)\b|\baged?\s+(\d+)/i.exec(from.text);
		const found = Number(age?.[1] ?? age?.[2]);
		if (age) {
			from.numbers.splice(from.numbers.indexOf(found), 1);
			return found;
		}
	}
	return from.numbers.shift() ?? 1;
}

// a run of capitalised words, the first not at a sentence's start only when it is one word
const NAME = /\b\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)+/u;
const PLACE = /\b(?:in|at|from|to|near)\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)*)/u;

function stringFor(property: Property, key: string, from: Source): string {
	const about = `${key} ${property.description ?? ''}`.toLowerCase();
	const text = from.text;
	const pick = (pattern: RegExp) => {
		const found = pattern.exec(text);
		return found ? (found[1] ?? found[0]) : undefined;
	};
	// quoted words are what the question gives a tool or a field: they win over guesses from the text
	const quoted = /["“'][^"”']+["”']/.test(text);
	const read =
		(/e-?mail/.test(about) && pick(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/)) ||
		(/url|link|website/.test(about) && pick(/https?:\/\/\S+/)) ||
		((/date|day|when/.test(about) || property.format === 'date') && pick(/\d{4}-\d{2}-\d{2}/)) ||
		(!quoted && /city|town|place|location|country|where|address/.test(about) && pick(PLACE)) ||
		(!quoted && /name|person|who|author|customer/.test(about) && pick(NAME)) ||
		(!quoted &&
			/reason|summary|explanation|analysis|answer|text|comment|message/.test(about) &&
			text.replace(/\s+/g, ' ').trim().slice(0, 300));
	if (read) return read;
	// each quoted text once, the last one again for the rest
	return (from.texts.length > 1 ? from.texts.shift() : from.texts[0]) || text.slice(0, 100);
}

function typeOf(property: Property): string | undefined {
	const type = Array.isArray(property.type)
		? property.type.find((t) => t !== 'null')
		: property.type;
	return (
		type ??
		(property.anyOf ? typeOf(property.anyOf[0]) : property.properties ? 'object' : undefined)
	);
}

const WORDS_KINDS = ['person', 'company', 'place', 'prose', 'other'];

/** A structured answer's value of the field's kind found in the text (fieldKinds.ts), or undefined. */
function valueOfKind(property: Property, key: string, from: Source, numeric: boolean) {
	const kind = kindOf(key, property.description, property.format);
	const value = readKind(kind, key, property.description ?? '', numeric, {
		text: from.text,
		taken: from.taken ?? [],
	});
	if (typeof value === 'string' && (kind === 'person' || kind === 'company'))
		from.taken = [...(from.taken ?? []), value];
	// words the question quotes are what it gives a field of words (a name only when they are one)
	const quoted = from.texts[0];
	const named = (words: string) => /^\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*)*$/u.test(words);
	if (value === undefined && !numeric && WORDS_KINDS.includes(kind) && quoted !== undefined) {
		if ((kind === 'person' || kind === 'company') && !named(quoted)) return undefined;
		return from.texts.length > 1 ? from.texts.shift() : quoted;
	}
	return value;
}

/** A value of the property's type, read from the text where the property says what it is. */
export function valueFor(property: Property, from: Source, key = ''): unknown {
	const type = typeOf(property);
	if (property.enum?.length) return enumValue(property.enum, from.text);
	if (from.strict && (type === 'number' || type === 'integer')) {
		const value = valueOfKind(property, key, from, true);
		if (value !== undefined)
			return typeof value === 'number' && type === 'integer' ? Math.round(value) : value;
		// a bounded score the text does not state: from the text's tone, not from its other numbers;
		// a rating the text does not give stays out
		const bounded =
			kindOf(key, property.description, property.format) === 'rating'
				? undefined
				: boundedNumber(property, key, { ...from, numbers: [] });
		if (bounded !== undefined) return bounded;
		return typeof value === 'number' && type === 'integer' ? Math.round(value) : value;
	}
	if (from.strict && type === 'array') {
		const value = valueFor(property.items ?? { type: 'string' }, from, key);
		return value === undefined || value === null ? [] : [value];
	}
	if (from.strict && type !== 'boolean' && type !== 'object')
		return valueOfKind(property, key, from, false);
	if (type === 'number' || type === 'integer') return numberFor(property, key, from);
	if (type === 'boolean') return from.text.toLowerCase().includes(key.toLowerCase()) && !!key;
	if (type === 'array') return [valueFor(property.items ?? { type: 'string' }, from, key)];
	if (type === 'object') return filled(property.properties ?? {}, from, property.required);
	return stringFor(property, key, from);
}

export function filled(
	properties: Record<string, Property>,
	from: Source,
	required?: string[],
): Record<string, unknown> {
	const categories = classified(properties, from.text);
	if (categories) return categories;
	const value: Record<string, unknown> = {};
	const entries = Object.entries(properties);
	// people first, so that a company field does not take a person's name
	const people = (name: string, p: Property) => kindOf(name, p.description, p.format) === 'person';
	const order = from.strict
		? [...entries.filter(([n, p]) => people(n, p)), ...entries.filter(([n, p]) => !people(n, p))]
		: entries;
	for (const [name, property] of order) {
		const found = valueFor(property, from, name);
		if (found !== undefined) value[name] = found;
		else if (nullable(property)) value[name] = null;
		else if (required?.includes(name) && typeOf(property) === 'string') value[name] = '';
	}
	return Object.fromEntries(entries.filter(([n]) => n in value).map(([n]) => [n, value[n]]));
}

const nullable = (property: Property) =>
	(Array.isArray(property.type) && property.type.includes('null')) ||
	!!property.anyOf?.some((p) => p.type === 'null');

/** What a text gives to fill a schema: its numbers in order and its quoted words. */
export function sourceOf(text: string, texts: string[], strict = false): Source {
	const numbers = (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
	return { text, numbers, texts, strict };
}
