/**
 * What kind of value a structured answer's field holds (an e-mail address, an amount, a date, an
 * identifier, a person's or a company's name, a place…), read from the field's name, description
 * and format, and the value of that kind a text gives for it: from a line labelled with the
 * field's words first ("Invoice number: INV-2291"), else from the words that announce it ("my name
 * is …", "due by …"), else the first of its kind in the text. A field whose kind the text does not
 * hold gets nothing: a real model leaves it out rather than filling it with a word of another kind.
 */

export type FieldKind =
	| 'email'
	| 'url'
	| 'phone'
	| 'date'
	| 'amount'
	| 'currency'
	| 'age'
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

const MONTHS = [
	'january',
	'february',
	'march',
	'april',
	'may',
	'june',
	'july',
	'august',
	'september',
	'october',
	'november',
	'december',
];
const MONTH = `(?:${MONTHS.map((m) => `${m[0].toUpperCase()}${m.slice(1, 3)}(?:${m.slice(3)})?\\.?`).join('|')})`;
const DAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');

// words that start with a capital but name no person, company or place
const NOT_NAMES = new Set(
	[
		...MONTHS,
		...DAYS,
		..."i im i'm i’m dear hi hello hey thanks thank regards best kind sincerely cheers the a an and or but our your my we you please invoice order ticket subject re fwd fw total amount due date customer support team service sales billing hello hope it this that there here what when where which who why how can could would should will is are was were has have had do does did not no yes ok okay mr mrs ms dr sir madam account payment ps unfortunately also however so then just still sorry great good bad today tomorrow yesterday attached as if for from to in on at by with after before since because while all any every some none new old first last next note update urgent important reminder review refund shipping delivery product item price plan pro premium basic standard free english german french spanish".split(
			' ',
		),
	].map((w) => w.toLowerCase()),
);
const COMPANY_SUFFIX =
	/\b(?:Inc|Ltd|LLC|GmbH|Corp|Corporation|Co|AG|BV|SA|SAS|SARL|plc|PLC|Limited|Group|Labs|Systems|Solutions|Technologies|Software|Consulting|Logistics|Partners|Studio|Studios|Bakery|Industries|Holdings|Media|Foods|Supplies|Services)\b\.?/;

const CAP_WORD = "\\p{Lu}[\\p{L}'’-]*";
const CAP_RUN = new RegExp(`${CAP_WORD}(?:[ \\t]+(?:${CAP_WORD}|&|of|de|van|von|der|la))*`, 'gu');

const isNameWord = (word: string) =>
	/^\p{Lu}[\p{L}'’-]+$/u.test(word) && !NOT_NAMES.has(word.toLowerCase().replace(/[’']s$/, ''));

/** Capitalised runs of the text that can be a name: no greeting, month, pronoun or sentence opener in them. */
function nameRuns(text: string): string[] {
	const runs: string[] = [];
	for (const match of text.matchAll(CAP_RUN)) {
		const words = match[0].split(/[ \t]+/);
		// drop leading words that are not name words ("Dear Laura Becker" → "Laura Becker")
		while (words.length && !isNameWord(words[0])) words.shift();
		while (words.length && !/^\p{Lu}/u.test(words[words.length - 1])) words.pop();
		const kept: string[] = [];
		for (const word of words) {
			if (!/^\p{Lu}/u.test(word) || isNameWord(word) || COMPANY_SUFFIX.test(word)) kept.push(word);
			else break;
		}
		if (kept.length) runs.push(kept.join(' '));
	}
	return runs;
}

const PERSON_CUES = [
	/\b(?:my name is|I am|I['’]m|this is|name:|customer:|from:|bill to:|billed to:|signed,?|contact:)\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})/iu,
	/(?:regards|thanks|thank you|best|sincerely|cheers|warmly|yours)[,!.]?\s*\n+\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})/iu,
	/(?:^|\n)\s*[—–-]\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})\s*$/mu,
];

function personIn(text: string, avoid: string[]): string | undefined {
	for (const cue of PERSON_CUES) {
		const found = cue.exec(text)?.[1];
		if (!found) continue;
		const name = takeWhileNames(found.split(/[ \t]+/)).join(' ');
		if (name && !COMPANY_SUFFIX.test(name) && !avoid.includes(name)) return name;
	}
	return nameRuns(text).find(
		(run) =>
			run.split(' ').length >= 2 &&
			run.split(' ').length <= 3 &&
			!COMPANY_SUFFIX.test(run) &&
			!avoid.includes(run),
	);
}

function takeWhileNames(words: string[]): string[] {
	const kept: string[] = [];
	for (const word of words) {
		if (!isNameWord(word)) break;
		kept.push(word);
	}
	return kept;
}

function companyIn(text: string, avoid: string[]): string | undefined {
	const labelled = /\b(?:company|organi[sz]ation|employer|vendor|supplier):\s*([^\n,;]+)/i
		.exec(text)?.[1]
		?.trim();
	if (labelled && /\p{Lu}/u.test(labelled)) return labelled.replace(/[.]$/, '');
	const suffixed = nameRuns(text).find(
		(run) => COMPANY_SUFFIX.test(run) && run.split(' ').length >= 2,
	);
	if (suffixed) return suffixed;
	const at =
		/\b(?:at|from|with|for|of)\s+((?:\p{Lu}[\p{L}&'’-]+)(?:[ \t]+\p{Lu}[\p{L}&'’-]+){0,3})/u.exec(
			text,
		)?.[1];
	const atName = at ? takeWhileNames(at.split(/[ \t]+/)).join(' ') : '';
	return atName && !avoid.includes(atName) && !avoid.some((a) => a.includes(atName))
		? atName
		: undefined;
}

const PLACE =
	/\b(?:in|at|from|to|near|based in|lives in|located in)\s+((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})/gu;

function placeIn(text: string, avoid: string[]): string | undefined {
	for (const match of text.matchAll(PLACE)) {
		const place = takeWhileNames(match[1].split(/[ \t]+/)).join(' ');
		if (place && !avoid.includes(place) && !COMPANY_SUFFIX.test(place)) return place;
	}
	return undefined;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const URL_PATTERN = /https?:\/\/[^\s)>\]"']+/;
const PHONE = /(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?(?:[\s.-]\d{2,4}){2,4}/;
const MONEY =
	/(?:([$€£¥]|USD|EUR|GBP|CHF|CAD|AUD)\s?(\d{1,3}(?:[,\s]\d{3})+(?:\.\d{1,2})?|\d+(?:[.,]\d{1,2})?))|(?:(\d{1,3}(?:[,\s]\d{3})+(?:\.\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([$€£]|USD|EUR|GBP|CHF|CAD|AUD|dollars?|euros?|pounds?)\b)/g;
const IDENTIFIER = /(?:#\s?\d[\w-]*|\b[A-Z]{1,6}[-/]?\d[\w/-]*\b|\b\d{4,}(?:[-/]\d+)*\b)/g;

function money(text: string): Array<{ value: number; currency: string; at: number }> {
	return [...text.matchAll(MONEY)].map((m) => {
		const raw = (m[2] ?? m[3]).replace(/[\s,](?=\d{3}\b)/g, '').replace(',', '.');
		return { value: Number(raw), currency: currencyCode(m[1] ?? m[4]), at: m.index ?? 0 };
	});
}

function currencyCode(symbol: string): string {
	const s = symbol.toLowerCase();
	if (s === '$' || s.startsWith('dollar')) return 'USD';
	if (s === '€' || s.startsWith('euro')) return 'EUR';
	if (s === '£' || s.startsWith('pound')) return 'GBP';
	if (s === '¥') return 'JPY';
	return symbol.toUpperCase();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The text's dates as ISO days (YYYY-MM-DD), each with where it stands. */
function dates(text: string): Array<{ iso: string; at: number }> {
	const found: Array<{ iso: string; at: number }> = [];
	const monthOf = (word: string) =>
		MONTHS.findIndex((m) => word.toLowerCase().startsWith(m.slice(0, 3))) + 1;
	const add = (y: number, m: number, d: number, at: number) => {
		if (m >= 1 && m <= 12 && d >= 1 && d <= 31 && y >= 1900 && y <= 2100)
			found.push({ iso: `${y}-${pad(m)}-${pad(d)}`, at });
	};
	for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) add(+m[1], +m[2], +m[3], m.index!);
	for (const m of text.matchAll(
		new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? (${MONTH}),? (\\d{4})\\b`, 'g'),
	))
		add(+m[3], monthOf(m[2]), +m[1], m.index!);
	for (const m of text.matchAll(
		new RegExp(`\\b(${MONTH}) (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'g'),
	))
		add(+m[3], monthOf(m[1]), +m[2], m.index!);
	for (const m of text.matchAll(/\b(\d{1,2})([/.])(\d{1,2})\2(\d{4})\b/g)) {
		const [a, b] = [+m[1], +m[3]];
		// 15/03/2024 and 15.03.2024 are day first; 03/15/2024 month first
		const dayFirst = m[2] === '.' || a > 12;
		add(+m[4], dayFirst ? b : a, dayFirst ? a : b, m.index!);
	}
	return found.sort((x, y) => x.at - y.at);
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

/** A value labelled with the field's words on a line of its own ("Invoice number: INV-2291"). */
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

const allOf = (pattern: RegExp, text: string) =>
	[
		...text.matchAll(
			new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
		),
	].map((m) => ({ value: m[0], at: m.index ?? 0 }));

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
			const found = PHONE.exec(text)?.[0];
			return found && found.replace(/\D/g, '').length >= 7 ? found.trim() : undefined;
		}
		case 'date':
			return nearest(text, dates(text), cues)?.iso;
		case 'amount': {
			const found = nearest(text, money(text), cues);
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
			const found = nearest(text, free, cues)?.value.replace(/^#\s?/, '');
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
				.replace(/\s+/g, ' ')
				.split(/(?<=[.!?])\s+/)
				.filter((s) => /\p{L}{3}/u.test(s) && !/^(hi|hello|dear|hey)\b/i.test(s));
			const cued = sentences.find((s) => cues.some((cue) => s.toLowerCase().includes(cue)));
			return (cued ?? sentences[0])?.slice(0, 300);
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
