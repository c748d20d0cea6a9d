/**
 * What the emulator's scripted model says (toolsProtocolModel.ts for the package's chat model,
 * toolCalling.ts for OpenAI-compatible clients): which tool a question calls for, by the words of
 * the question and of each tool's name and description; the sentence it answers with from a tool's
 * result; its answer to a question about the conversation, read from the history it was sent; its
 * answer to a request for code (codeSnippets.ts); and the note, in the first answer of a
 * conversation, that a scripted stand-in answered. How a call is written is modelFamilies.ts' job.
 */
import { asksForCode, codeAnswer } from './codeSnippets';

/** Said in the first answer of a conversation, where a person looks. */
export const STAND_IN_NOTE =
	"(A scripted stand-in for the platform's models answered: the emulator's rules, not a real model.)";

export interface NamedTool {
	name: string;
	description?: string;
}

const STOP = new Set(
	'a an and are as at be by can could do does for from has have how i in is it its me my of on or please the this to use using was what when where which who why will with would you your tell give show find about some any there that than then'.split(
		' ',
	),
);

const stem = (word: string) => word.toLowerCase().replace(/(?:ing|ed|es|s)$/, '');

function contentWords(text: string): Set<string> {
	return new Set(
		(text.replace(/([a-z])([A-Z])/g, '$1 $2').match(/[\p{L}\p{N}]+/gu) ?? [])
			.map((w) => w.toLowerCase())
			.filter((w) => w.length > 1 && !STOP.has(w))
			.map(stem),
	);
}

// what a question asks for, and the words of a tool that does it
const INTENTS: Array<{ asks: RegExp; tool: RegExp }> = [
	{
		asks: /\bwhat (?:does|do) .+ (?:mean|stand for)\b|\bmeaning of\b|\bdefin(?:e|ition)\b|\bwhat(?:'s| is| are) (?:an? |the )?[\p{L}-]+\??$|\blook ?(?:\S+ )?up\b|^\s*[\p{L}-]+\s*\??\s*$|\bexplain (?:the )?(?:word|term)\b|\btell me about\b/iu,
		tool: /\b(?:glossary|dictionary|defin\w*|meaning|look\w* up|lookup|word|term|encyclop\w*|wiki\w*|knowledge|search)\b/i,
	},
	{
		asks: /\d\s*[-+*/×x^]\s*\d|\b(?:times|plus|minus|divided|multipl\w*|sum of|square root|percent of|calculat\w*)\b/i,
		tool: /\b(?:calculat\w*|math\w*|arithmetic|add\w*|sum\w*|multipl\w*|subtract\w*|divid\w*|numbers?)\b/i,
	},
	{ asks: /\bweather|\bforecast|\btemperature\b|\braining\b/i, tool: /\bweather|\bforecast/i },
	{ asks: /\bwhat time\b|\btoday'?s date\b|\bwhat day\b/i, tool: /\btime\b|\bdate\b|\bclock\b/i },
	{ asks: /\bsearch\b|\blatest\b|\bnews\b|\bcurrent\b/i, tool: /\bsearch|\bweb\b|\bnews\b/i },
	// a tool that hands a question on to an agent or an assistant fits any question
	{
		asks: /\?\s*$|^\s*(?:what|who|how|why|when|where|which|can|could|tell|explain|describe)\b/i,
		tool: /\b(?:agent|assistant)\b/i,
	},
];

/** How well a tool fits the question: the question's intent, then shared words. */
function relevance(tool: NamedTool, question: string): number {
	const about = `${tool.name} ${tool.description ?? ''}`;
	const intent = INTENTS.some(({ asks, tool: does }) => asks.test(question) && does.test(about))
		? 2
		: 0;
	const asked = contentWords(question);
	const shared = [...contentWords(about)].filter((w) => w.length > 2 && asked.has(w)).length;
	return intent + shared;
}

/**
 * The tools the question calls for: those it names (in its order), else the one that fits it best
 * by intent or shared words; none for a request for code or a question about the conversation.
 */
export function toolsCalledFor<T extends NamedTool>(question: string, tools: T[]): T[] {
	const lower = question.toLowerCase();
	const named = tools
		.filter((tool) => lower.includes(tool.name.toLowerCase()))
		.sort((a, b) => lower.indexOf(a.name.toLowerCase()) - lower.indexOf(b.name.toLowerCase()));
	if (named.length) return named;
	if (asksForCode(question) || asksAboutConversation(question)) return [];
	const scored = tools
		.map((tool) => ({ tool, score: relevance(tool, question) }))
		.filter(({ score }) => score > 0)
		.sort((a, b) => b.score - a.score);
	return scored.length ? [scored[0].tool] : [];
}

/** The thing a question asks about ("What does otter mean?" → otter), when it names one. */
export function subjectOf(question: string): string | undefined {
	const patterns = [
		/["“']([^"”']+)["”']/,
		/\bwhat (?:does|do) (?:the (?:word|term) )?(?:an? |the )?([\p{L}\p{N} -]+?) (?:mean|stand for)\b/iu,
		/\b(?:meaning of|define|definition of|look ?up|tell me about|explain) (?:the (?:word|term) )?(?:an? |the )?([\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+)?)/iu,
		/\bwhat(?:'s| is| are) (?:an? |the )?([\p{L}\p{N}-]+)\s*\??$/iu,
	];
	for (const pattern of patterns) {
		const found = pattern.exec(question.trim())?.[1]?.trim();
		if (found) return found;
	}
	return undefined;
}

/**
 * The words a string argument takes from the question: quoted ones, else the thing it asks about,
 * else its longest word.
 */
/** The question's quoted words, each once. */
export function quotedIn(question: string): string[] {
	return [...question.matchAll(/["“']([^"”']+)["”']/g)].map((m) => m[1]);
}

export function textsOf(question: string, toolNames: string[] = []): string[] {
	const quoted = quotedIn(question);
	if (quoted.length) return quoted;
	const subject = subjectOf(question);
	if (subject) return [subject];
	// a tool named in the question says which tool to call, not what to give it
	const named = new Set(toolNames.map((name) => name.toLowerCase()));
	const words = (question.match(/[\p{L}\p{N}_-]+/gu) ?? []).filter(
		(w) => !named.has(w.toLowerCase()),
	);
	return [words.reduce((longest, word) => (word.length > longest.length ? word : longest), '')];
}

/** A tool's result as plain words: JSON read into its texts, never quoted raw. */
function resultWords(result: string): string[] {
	let value: unknown = result;
	try {
		value = JSON.parse(result);
	} catch {
		// plain text
	}
	const texts: string[] = [];
	const walk = (v: unknown, key?: string) => {
		if (v === null || v === undefined || v === '') return;
		if (Array.isArray(v)) v.forEach((item) => walk(item));
		else if (typeof v === 'object') {
			const entries = Object.entries(v as Record<string, unknown>);
			// n8n wraps a tool's text in { response }; a run's record holds its answer in { output }:
			// the answer is what counts, not the record around it
			const answer = entries.find(([k]) => /^(response|output|answer|result|text)$/.test(k));
			if (answer && (entries.length === 1 || typeof answer[1] === 'string')) walk(answer[1]);
			else if (entries.length === 1 && typeof entries[0][1] === 'string') walk(entries[0][1]);
			else entries.forEach(([k, item]) => walk(item, k));
		} else texts.push(key ? `${key.replace(/_/g, ' ')} is ${String(v)}` : String(v).trim());
	};
	walk(value);
	return texts.filter(Boolean);
}

/** One sentence from a tool's result: what it said in words, or that it returned nothing. */
export function resultSentence(tool: string | undefined, result: string): string {
	const name = tool ?? 'the tool';
	const texts = resultWords(result.trim());
	if (!texts.length)
		return `The ${name} tool returned nothing (an empty result), so I cannot answer from it.`;
	if (/^(?:Error|User rejected)/i.test(texts[0]))
		return `The ${name} tool did not give an answer: ${texts.join('; ')}.`.replace(/\.\.$/, '.');
	// "otter: a river animal" is a term and its meaning; "Glossary says: …" is not
	const pairs = texts.map((text) => {
		const pair = /^((?:[\p{L}\p{N}'-]+ ?){1,3}):\s*([\s\S]+)$/u.exec(text);
		return pair && !/\b(?:says|said|answer|result|error)\b/i.test(pair[1]) ? pair : null;
	});
	if (pairs.every(Boolean)) {
		const phrases = pairs.map((pair) => {
			const [, term, meaning] = pair!;
			return /^(?:not|no|none|is|are|was|has|unknown)\b/i.test(meaning)
				? `"${term}" is ${meaning.replace(/^is\s+/i, '')}`
				: `"${term}" means ${meaning}`;
		});
		return end(`According to ${name}, ${phrases.join('; ')}`);
	}
	if (texts.length === 1 && /^-?[\d.,]+$/.test(texts[0]))
		return `The ${name} tool gives ${texts[0]}.`;
	return end(`The ${name} tool says: ${texts.join('; ')}`);
}

/** A sentence's full stop, unless it has one. */
function end(sentence: string): string {
	return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Whether the message asks about the conversation itself rather than the world. */
export function asksAboutConversation(question: string): boolean {
	return /\b(?:did I (?:ask|say|tell|mention|write)|have I (?:asked|said|told)|I asked (?:you )?(?:about )?(?:first|last|before|earlier)|my (?:first|last|previous|earlier) (?:question|message)|what(?:'s| is) my name|who am I|do you remember|our conversation|earlier in (?:this|our) (?:chat|conversation))\b/i.test(
		question,
	);
}

/** The answer to a question about the conversation, from the user's earlier messages (oldest first). */
export function historyAnswer(question: string, earlier: string[]): string {
	if (!earlier.length)
		return 'This is the first message of our conversation: I have nothing earlier to go by.';
	if (/\bmy name\b|\bwho am I\b/i.test(question)) {
		const told = earlier
			.map(
				(m) =>
					/\b(?:my name is|I am|I'm|call me)\s+(\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+)?)/u.exec(
						m,
					)?.[1],
			)
			.filter((n): n is string => !!n)
			.pop();
		return told
			? `You told me your name is ${told}.`
			: 'You have not told me your name in this conversation.';
	}
	const first = /\bfirst\b|\bearliest\b|\bbegin/i.test(question);
	const picked = first ? earlier[0] : earlier[earlier.length - 1];
	const about = subjectOf(picked);
	const which = first ? 'Your first question' : 'Your last message before this one';
	return about
		? `${which} was about ${about} ("${picked.trim()}").`
		: `${which} was: "${picked.trim()}".`;
}

/** The final answer when no tool is called: code, the conversation, or what the stand-in can do. */
export function plainAnswer(question: string, earlier: string[], tools: NamedTool[]): string {
	if (asksForCode(question)) return codeAnswer(question);
	if (asksAboutConversation(question)) return historyAnswer(question, earlier);
	if (/^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(question))
		return `Hello! ${canDo(tools)}`;
	return `I have no tool for that and no knowledge of my own to answer "${question.trim()}". ${canDo(tools)}`;
}

function canDo(tools: NamedTool[]): string {
	if (!tools.length) return 'Ask me for a short code snippet, or about what you said earlier.';
	const described = tools.map((t) => (t.description ? `${t.name} (${t.description})` : t.name));
	return `I can use ${described.join(', ')}, write a short code snippet, or recall what you said earlier.`;
}
