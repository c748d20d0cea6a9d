/**
 * Values of one kind found in a text, for the scripted model's structured answers (fieldKinds.ts
 * says which kind a field wants): e-mail addresses, phone numbers, amounts of money with their
 * currency, dates as ISO days, and the capitalised runs that name a person, a company or a place,
 * without greetings, months or sentence openers.
 */

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
export const COMPANY_SUFFIX =
	/\b(?:Inc|Ltd|LLC|GmbH|Corp|Corporation|Co|AG|BV|SA|SAS|SARL|plc|PLC|Limited|Group|Labs|Systems|Solutions|Technologies|Software|Consulting|Logistics|Partners|Studio|Studios|Bakery|Industries|Holdings|Media|Foods|Supplies|Services|Clinic|Hospital|Hotels?|Bank|University|School|Agency|Traders|Farms|Architects|Dental|Insurance|Airlines|Motors|Pharma)\b\.?/;

const CAP_WORD = "\\p{Lu}[\\p{L}'’-]*";
const CAP_RUN = new RegExp(`${CAP_WORD}(?:[ \\t]+(?:${CAP_WORD}|&|of|de|van|von|der|la))*`, 'gu');

const isNameWord = (word: string) =>
	/^\p{Lu}[\p{L}'’-]+$/u.test(word) && !NOT_NAMES.has(word.toLowerCase().replace(/[’']s$/, ''));

/** Capitalised runs of the text that can be a name: no greeting, month, pronoun or sentence opener in them. */
export function nameRuns(text: string): string[] {
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
	/\b(?:my name is|I am|I['’]m|this is|name:|customer:|client:|from:|bill to:|billed to:|signed,?|contact(?: person)?:|posted by|rated [\d ]+out of \d+ by|(?:Mr|Mrs|Ms|Dr|Prof)\.?)\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})/iu,
	/(?:regards|thanks|thank you|best|sincerely|cheers|warmly|yours)[,!.]?\s*\n+\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})/iu,
	/(?:^|\n)\s*[—–-]\s*((?:\p{Lu}[\p{L}'’-]+)(?:[ \t]+\p{Lu}[\p{L}'’-]+){0,2})\s*$/mu,
];

export function personIn(text: string, avoid: string[]): string | undefined {
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

export function takeWhileNames(words: string[]): string[] {
	const kept: string[] = [];
	for (const word of words) {
		if (!isNameWord(word)) break;
		kept.push(word);
	}
	return kept;
}

export function companyIn(text: string, avoid: string[]): string | undefined {
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

export function placeIn(text: string, avoid: string[]): string | undefined {
	for (const match of text.matchAll(PLACE)) {
		const place = takeWhileNames(match[1].split(/[ \t]+/)).join(' ');
		if (place && !avoid.includes(place) && !COMPANY_SUFFIX.test(place)) return place;
	}
	return undefined;
}

export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
export const URL_PATTERN = /https?:\/\/[^\s)>\]"']+/;
export const PHONE = /(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?(?:[\s.-]\d{2,4}){2,4}/;
const MONEY =
	/(?:([$€£¥]|USD|EUR|GBP|CHF|CAD|AUD)\s?(\d{1,3}(?:[,\s]\d{3})+(?:\.\d{1,2})?|\d+(?:[.,]\d{1,2})?))|(?:(\d{1,3}(?:[,\s]\d{3})+(?:\.\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([$€£]|USD|EUR|GBP|CHF|CAD|AUD|dollars?|euros?|pounds?)\b)/g;

export function money(text: string): Array<{ value: number; currency: string; at: number }> {
	return [...text.matchAll(MONEY)].map((m) => {
		const raw = (m[2] ?? m[3]).replace(/[\s,](?=\d{3}\b)/g, '').replace(',', '.');
		return { value: Number(raw), currency: currencyCode(m[1] ?? m[4]), at: m.index ?? 0 };
	});
}

export function currencyCode(symbol: string): string {
	const s = symbol.toLowerCase();
	if (s === '$' || s.startsWith('dollar')) return 'USD';
	if (s === '€' || s.startsWith('euro')) return 'EUR';
	if (s === '£' || s.startsWith('pound')) return 'GBP';
	if (s === '¥') return 'JPY';
	return symbol.toUpperCase();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The text's dates as ISO days (YYYY-MM-DD), each with where it stands. */
export function dates(text: string): Array<{ iso: string; at: number }> {
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

export const allOf = (pattern: RegExp, text: string) =>
	[
		...text.matchAll(
			new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
		),
	].map((m) => ({ value: m[0], at: m.index ?? 0 }));
