/**
 * Calls written as bare JSON, with no marker: the asked `{"tool_call": …}`, OpenAI's
 * `{"name", "arguments"}` (arguments as a JSON string), a message's `tool_calls`, `function_call`,
 * Llama 3's `{"name", "parameters"}` (`;`-separated), Anthropic's `tool_use`, Gemini's
 * `functionCall`, xLAM's array, LangChain's JSON agent (`{"action", "action_input"}`, fenced).
 * Read only where the answer opens with it, or after the prose a family writes before a call; a
 * fenced block after prose only in a protocol's own wrapper (`tool_call`, `action`).
 */
import { FENCE_LANGUAGE, FENCE_OPENING, FENCE_RUN, fenceRunAt } from '../../../output/codeFences';
import { atLineStart, isLeadIn } from '../answerLayout';
import { CALL_FENCES, JSON_FENCES } from './blocks';
import { callsOf, finalActionOf, inOwnWrapper, jsonAt, jsonVerdict } from './jsonShapes';
import { parseWhole } from '../looseJson';
import type { BoundTool, CallFamily, OpeningPlace, Verdict, WrittenCall } from '../types';

/** A whole answer that is one fenced block. */
const FENCED = new RegExp(`^${FENCE_RUN}${FENCE_LANGUAGE}\\s*\\n([\\s\\S]*?)\\n?${FENCE_RUN}$`);

/** A line of prose before the next call: JSON or a fence. */
const PROSE_LINE = new RegExp(`^[^\\n{[\`]{1,200}\\n\\s*(?=[{[]|${FENCE_RUN})`);

/** The calls of the JSON value (fenced or not) at `at`, if it writes any and may stand there. */
function callsAt(text: string, at: number, place: OpeningPlace, tools: BoundTool[]) {
	const value = jsonAt(text, at);
	if (!value) return undefined;
	const fence = FENCE_OPENING.exec(text.slice(at, at + 64));
	if (fence && !place.whole) {
		const language = fence[1].toLowerCase();
		const own =
			CALL_FENCES.includes(language) ||
			(JSON_FENCES.includes(language) && inOwnWrapper(value.value));
		if (!own) return undefined;
	}
	const found = callsOf(value.value, tools);
	return found && { found, end: value.end };
}

/** JSON calls from `at`: one after another, `;`-separated, or with a line of prose between. */
function readOpening(
	text: string,
	at: number,
	place: OpeningPlace,
	tools: BoundTool[],
): WrittenCall[] {
	const calls: WrittenCall[] = [];
	let next = at;
	for (;;) {
		const read = callsAt(text, next, place, tools);
		if (!read) return calls;
		calls.push(...read.found.map((call) => ({ ...call, start: next, end: read.end })));
		const gap = /^[\s;,]*/.exec(text.slice(read.end, read.end + 64))![0].length;
		next = read.end + gap;
		if (/^[{[]/.test(text[next] ?? '') || fenceRunAt(text, next)) continue;
		// a line of prose between two calls ("Then the word:")
		const line = PROSE_LINE.exec(text.slice(next, next + 240));
		if (!line || !isLeadIn(line[0]) || !atLineStart(text, next + line[0].length)) return calls;
		next += line[0].length;
	}
}

/** LangChain's JSON agent finishing, as the whole answer (fenced or not). */
function readFinal(text: string): string | undefined {
	const fenced = FENCED.exec(text);
	const parsed = parseWhole(fenced ? fenced[1] : text);
	return parsed && finalActionOf(parsed.value);
}

/** The stream's verdict on JSON where a call may open (a call list `[name(` is pythonic's). */
const openingVerdict = (text: string, _start: boolean, tools: BoundTool[] | undefined): Verdict =>
	/^[{[]/.test(text) && !/^\[\s*[A-Za-z_]/.test(text) ? jsonVerdict(text, tools, false) : 'text';

export const jsonObjects: CallFamily = {
	name: 'json',
	markers: [],
	markersMeanACall: false,
	read: () => [],
	readOpening,
	readFinal,
	openingVerdict,
	callFences: ['tool_call', 'tool_calls'],
};
