/**
 * What kind of value a structured answer's field holds (an e-mail address, an amount, a date, an
 * identifier, a person's or a company's name, a place…), read from the field's name, description
 * and format, and the value of that kind a text gives for it: from a label with the
 * field's words first ("Invoice number: INV-2291"), else from the words that announce it ("my name
 * is …", "due by …"), else the first of its kind in the text. A field whose kind the text does not
 * hold gets nothing: a real model leaves it out rather than filling it with a word of another kind.
 */

import {
	EMAIL,
	PHONE,
	URL_PATTERN,
	allOf,
	companyIn,
	dates,
	money,
	personIn,
	placeIn,
	takeWhileNames,
} from './textValues';

const IDENTIFIER = /(?:#\s?\d[\w-]*|\b[A-Z]{1,6}[-/]?\d[\w/-]*\b|\b\d{4,}(?:[-/][A-Z\d]+)*\b)/g;
// what an identifier is of, and the prefix such identifiers carry
const IDENTIFIED: Array<[RegExp, RegExp]> = [
	[/\binvoice|\bbill\b|\binv\b/, /^(?:INV|BILL|TX|PF)\b/i],
	[/\b(?:order|purchase)/, /^(?:ORD|PO|SO)\b/i],
	[/\baccount/, /^(?:ACC|ACCT)\b/i],
	[/\b(?:ticket|case)/, /^(?:TCK|TKT|CS|CASE)\b/i],
	[/\btracking/, /^1Z/],
	[/\bbooking/, /^(?:BK|BKG)\b/i],
];

export type FieldKind =
	| 'email'
	| 'url'
	| 'phone'
	| 'date'
	| 'amount'
	| 'currency'
	| 'age'
	| 'rating'
	| 'percent'
	| 'quantity'
	| 'year'
	| 'identifier'
	| 'company'
	| 'person'
	| 'place'
	| 'prose'
	| 'other';

/** The field's kind, by the words of its name (camelCase and snake_case split), description, format. */
export function kindOf(key: string, description = '', format?: string): FieldKind {
	const name = key
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.toLowerCase();
	const about = `${name} ${description.toLowerCase()}`;
	const has = (pattern: RegExp) => pattern.test(name) || pattern.test(about);
	if (format === 'email' || /e-?mail/.test(about)) return 'email';
	if (format === 'uri' || format === 'url' || has(/\b(url|link|website|homepage)\b/)) return 'url';
	if (has(/\b(phone|mobile|telephone|tel)\b/)) return 'phone';
	if (
		format === 'date' ||
		format === 'date-time' ||
		/\b(date|day|deadline|when|dob|birthday)\b/.test(name)
	)
		return 'date';
	if (/\b(currency)\b/.test(name)) return 'currency';
	if (
		/\b(amount|total|price|cost|fee|balance|charge|paid|payment|subtotal|tax|salary|budget|revenue|refund)\b/.test(
			name,
		)
	)
		return 'amount';
	if (/\bage\b/.test(name)) return 'age';
	if (/\b(rating|stars?)\b/.test(name)) return 'rating';
	if (/\b(percent|percentage|discount rate)\b/.test(name)) return 'percent';
	if (/\b(quantity|qty|count|units|seats|licen[cs]es|guests|items)\b/.test(name)) return 'quantity';
	if (/\byear\b/.test(name)) return 'year';
	if (
		/\b(id|number|no|num|reference|ref|code|order|invoice|ticket|account|sku|tracking|case|booking|confirmation|policy|serial)\b/.test(
			name,
		)
	)
		return 'identifier';
	if (
		/\b(company|organi[sz]ation|employer|business|vendor|supplier|firm|merchant|store|shop)\b/.test(
			name,
		)
	)
		return 'company';
	if (
		/\b(name|person|customer|contact|sender|author|who|recipient|buyer|employee|manager|reviewer|signer)\b/.test(
			name,
		)
	)
		return 'person';
	if (
		/\b(city|cities|towns?|places?|location|country|countries|state|region|province|where|address|destination|origin)\b/.test(
			name,
		)
	)
		return 'place';
	if (
		/\b(summary|reason|explanation|description|issue|problem|complaint|message|comment|text|request|question|topic|subject|note|feedback|answer|analysis)\b/.test(
			name,
		)
	)
		return 'prose';
	// the description says what the name does not
	if (/e-?mail address/.test(about)) return 'email';
	if (/\b(date|deadline)\b/.test(about)) return 'date';
	if (/\b(amount|price|total|cost)\b/.test(about)) return 'amount';
	if (/\b(identifier|reference number|id)\b/.test(about)) return 'identifier';
	if (/\b(company|organi[sz]ation)\b/.test(about)) return 'company';
	if (/\b(full name|person|first and last name)\b/.test(about)) return 'person';
	if (/\b(city|country|location)\b/.test(about)) return 'place';
	return 'other';
}

/** Words of a field's name and description that may label or announce its value in the text. */
function cueWords(key: string, description: string): string[] {
	return `${key.replace(/([a-z])([A-Z])/g, '$1 $2')} ${description}`
		.toLowerCase()
		.split(/[^a-z]+/)
		.filter(
			(w) =>
				w.length > 2 &&
				!['the', 'and', 'for', 'with', 'this', 'that', 'from', 'its', 'was'].includes(w),
		);
}

/** Of several finds, the one with a cue word just before it (within 40 characters), else the first. */
function nearest<T extends { at: number }>(
	text: string,
	finds: T[],
	cues: string[],
): T | undefined {
	const lower = text.toLowerCase();
	return (
		finds.find((f) =>
			cues.some((cue) => lower.slice(Math.max(0, f.at - 40), f.at).includes(cue)),
		) ?? finds[0]
	);
}

/** A value after a label of the field's words ("Invoice number: INV-2291"). */
function labelled(text: string, key: string, description: string): string | undefined {
	const name = key
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.toLowerCase();
	const words = name.split(' ').filter((w) => w.length > 1);
	for (const m of text.matchAll(/^[ \t]*([A-Za-z][\w .#/-]{1,30}?)[ \t]*[:=][ \t]*(.+)$/gm)) {
		const label = m[1].toLowerCase();
		if (words.length && words.every((w) => label.includes(w.replace(/s$/, '')))) return m[2].trim();
	}
	void description;
	return undefined;
}

export interface Reading {
	text: string;
	/** names given to other fields already, so that a company is not the person's name */
	taken: string[];
}

/** The value of the field's kind the text gives, or undefined. `numeric`: the field is a number. */
export function readKind(
	kind: FieldKind,
	key: string,
	description: string,
	numeric: boolean,
	{ text, taken }: Reading,
): string | number | undefined {
	const cues = cueWords(key, description);
	const label = labelled(text, key, description);
	const within = label !== undefined ? [label, text] : [text];
	for (const source of within) {
		const value = readFrom(kind, source, cues, numeric, taken, source === label);
		if (value !== undefined) return value;
	}
	return undefined;
}

function readFrom(
	kind: FieldKind,
	text: string,
	cues: string[],
	numeric: boolean,
	taken: string[],
	isLabel: boolean,
): string | number | undefined {
	switch (kind) {
		case 'email':
			return EMAIL.exec(text)?.[0];
		case 'url':
			return URL_PATTERN.exec(text)?.[0].replace(/[.,;]$/, '');
		case 'phone': {
			const days = dates(text);
			const found = allOf(PHONE, text).find(
				(f) =>
					f.value.replace(/\D/g, '').length >= 7 &&
					!days.some((d) => Math.abs(d.at - f.at) < 11) &&
					!/^\d{4}-\d{2}-\d{2}/.test(f.value.trim()),
			);
			return found?.value.trim();
		}
		case 'date': {
			const days = dates(text);
			// a due date is the one the text says is due, not the day something was paid or sent
			if (!isLabel && cues.some((cue) => /^(?:due|deadline|payable)$/.test(cue))) {
				const lower = text.toLowerCase();
				return days.find((d) =>
					/(?:\b(?:due|payable|deadline|before|until)\b[^.\n]{0,15}|\bby\s)$/.test(
						lower.slice(Math.max(0, d.at - 25), d.at),
					),
				)?.iso;
			}
			return nearest(text, days, cues)?.iso;
		}
		case 'amount': {
			const sums = money(text);
			const lower = text.toLowerCase();
			const cued = sums.filter((f) =>
				cues.some((cue) => lower.slice(Math.max(0, f.at - 40), f.at).includes(cue)),
			);
			// a text of several amounts: the one its words announce, else its total, else the largest
			const total = sums.filter((f) =>
				/\b(?:total|amount due|balance|grand total)\b[^\n$€£\d]{0,20}$/i.test(
					text.slice(Math.max(0, f.at - 30), f.at),
				),
			);
			const found = isLabel
				? sums[0]
				: (cued[0] ?? total.pop() ?? [...sums].sort((a, b) => b.value - a.value)[0]);
			if (found) return numeric ? found.value : String(found.value);
			if (!isLabel) return undefined;
			const plain = /\d[\d,]*(?:\.\d+)?/.exec(text)?.[0];
			return plain ? (numeric ? Number(plain.replace(/,/g, '')) : plain) : undefined;
		}
		case 'currency':
			return money(text)[0]?.currency ?? /\b(USD|EUR|GBP|CHF|JPY|CAD|AUD)\b/.exec(text)?.[1];
		case 'age': {
			const age =
				/(\d{1,3})[\s-]*(?:years?|yrs?)[\s-]*old|\baged?\s+(\d{1,3})\b|(\d{1,3})\s*(?:years? of age)/i.exec(
					text,
				);
			const value = Number(age?.[1] ?? age?.[2] ?? age?.[3]);
			return age && value < 130 ? value : undefined;
		}
		case 'rating': {
			const spelled = ['one', 'two', 'three', 'four', 'five'];
			const found =
				/(\d+(?:\.\d)?)\s*(?:stars?\b|\/\s*(?:5|10)\b|out of (?:5|10)\b)/i.exec(text)?.[1] ??
				new RegExp(`\\b(${spelled.join('|')})\\s+stars?\\b`, 'i').exec(text)?.[1];
			if (found === undefined) return undefined;
			const n = spelled.indexOf(found.toLowerCase());
			return n >= 0 ? n + 1 : Number(found);
		}
		case 'percent': {
			const found = /(\d+(?:\.\d+)?)\s?%|(\d+(?:\.\d+)?)\s?percent/i.exec(text);
			return found ? Number(found[1] ?? found[2]) : undefined;
		}
		case 'quantity': {
			const found =
				/\b(\d+)\s*(?:x\b|×|units?|pcs|pieces|items?|seats?|licen[cs]es?|boxes|bottles|copies|tickets|guests|people|persons)/i.exec(
					text,
				) ?? (isLabel ? /\b(\d+)\b/.exec(text) : null);
			return found ? Number(found[1]) : undefined;
		}
		case 'year': {
			const found = /\b(19\d{2}|20\d{2})\b/.exec(text)?.[1];
			return found ? Number(found) : undefined;
		}
		case 'identifier': {
			const finds = allOf(IDENTIFIER, text).filter(
				(f) => !/^\d{4}$/.test(f.value) || !/^(19|20)\d{2}$/.test(f.value),
			);
			// not a date's, an amount's or a phone number's digits
			const days = dates(text);
			const sums = money(text);
			const free = finds.filter(
				(f) =>
					!days.some((d) => Math.abs(d.at - f.at) < 11) &&
					!sums.some((s) => f.at >= s.at && f.at <= s.at + 15) &&
					!/[@]/.test(text.slice(f.at - 1, f.at)),
			);
			// an invoice number is announced as one ("invoice #40317", "INV-2291"), not any code
			const nouns = IDENTIFIED.filter(([noun]) => cues.some((cue) => noun.test(cue)));
			const lower = text.toLowerCase();
			const announced = nouns.length
				? free.filter((f) =>
						nouns.some(
							([noun, prefix]) =>
								prefix.test(f.value) || noun.test(lower.slice(Math.max(0, f.at - 30), f.at)),
						),
					)
				: free;
			const found = (isLabel ? free[0] : nearest(text, announced, cues))?.value.replace(
				/^#\s?/,
				'',
			);
			if (found === undefined) return undefined;
			if (!numeric) return found;
			const digits = /\d+/.exec(found)?.[0];
			return digits ? Number(digits) : undefined;
		}
		case 'company':
			if (numeric) return undefined;
			return isLabel
				? takeWhileNames(text.split(/[ \t]+/)).join(' ') || undefined
				: companyIn(text, taken);
		case 'person':
			if (numeric) return undefined;
			if (isLabel) return takeWhileNames(text.split(/[ \t]+/)).join(' ') || undefined;
			return personIn(text, taken);
		case 'place':
			if (numeric) return undefined;
			return isLabel ? text.replace(/[.]$/, '') : placeIn(text, taken);
		case 'prose': {
			if (numeric) return undefined;
			const sentences = text
				.split(/(?<=[.!?])\s+|\n+/)
				.map((s) => s.trim().replace(/^(?:hi|hello|dear|hey)\b[^,]{0,30},\s*/i, ''))
				.filter(
					(s) =>
						/\p{L}{3}\b.*\s\S+\s/u.test(s) && !/^(?:subject|thanks|regards|best|cheers)\b/i.test(s),
				);
			const trouble = cues.some((cue) => /issue|problem|complaint|reason/.test(cue))
				? (sentences.find((s) =>
						/\b(?:can['’]?t|cannot|not|never|fails?|error|crash\w*|wrong|broken|damaged|late|missing|nobody|cracked)\b/i.test(
							s,
						),
					) ?? sentences.find((s) => s.endsWith('?')))
				: undefined;
			return (trouble ?? sentences[0])?.slice(0, 300);
		}
		default: {
			if (isLabel) {
				if (!numeric) return text;
				const n = /-?\d+(?:\.\d+)?/.exec(text)?.[0];
				return n === undefined ? undefined : Number(n);
			}
			if (numeric) {
				// a number announced by the field's words ("3 late deliveries", "delay: 5 days")
				const lower = text.toLowerCase();
				for (const m of text.matchAll(/(?<![\w.#/-])\d+(?:\.\d+)?(?![\w/-]|\.\d)/g)) {
					const around = lower.slice(Math.max(0, m.index! - 30), m.index! + m[0].length + 30);
					if (cues.some((cue) => around.includes(cue))) return Number(m[0]);
				}
			}
			return undefined;
		}
	}
}
