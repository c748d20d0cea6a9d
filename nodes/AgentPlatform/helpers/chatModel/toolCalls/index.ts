/**
 * Reads a model's answer for tool calls (docs/chat-model.md, "Tool calls read"): reasoning taken
 * out first; a call is read only where the answer is one (answerLayout.ts): after a family's
 * marker outside code, or, without a marker, where the answer opens with it or after the prose a
 * family writes before a call; each read by its family's module (families/), once, in one pass.
 */
import { toolNamed, usableCall } from './arguments';
import {
	atLineStart,
	fencesOf,
	inInlineCode,
	endsItsLine,
	inSentence,
	isClosing,
	isLeadIn,
	LEAD_IN_CHARS,
	type Fence,
} from './answerLayout';
import { FAMILIES, MARKERS } from './families';
import { tagVerdict } from './openingVerdicts';
import { splitReasoning } from './reasoning';
import type { BoundTool, CallFamily, ToolCall, ToolsAnswer, WrittenCall } from './types';

export type { BoundTool, CallFamily, ToolCall, ToolsAnswer } from './types';
export { StreamedText } from './streamedText';
export { FAMILIES, familiesFor } from './families';

interface Place {
	at: number;
	/** The marker found there; none for an opening (JSON, a call list, a fence). */
	marker?: string;
	whole?: boolean;
}

const inFence = (fences: Fence[], at: number) =>
	fences.some((fence) => at > fence.start && at < fence.end);

/** The first few places outside code where each marker stands. */
function markerPlaces(text: string, fences: Fence[], markers: string[]): Place[] {
	const places: Place[] = [];
	for (const marker of markers) {
		for (
			let at = text.indexOf(marker), tries = 0;
			at >= 0 && tries < 8;
			at = text.indexOf(marker, at + 1), tries++
		) {
			if (inFence(fences, at) || inInlineCode(text, at)) continue;
			if (marker === 'Action:' && !atLineStart(text, at)) continue;
			const after = text.slice(at + marker.length, at + marker.length + 1);
			if (/^\w/.test(marker) && tagVerdict(marker, after, true) === 'not') continue;
			places.push({ at, marker });
			break;
		}
	}
	return places;
}

/** Where a call without a marker may open: the answer's start, or a line after its lead-in. */
function openingPlaces(text: string, fences: Fence[]): Place[] {
	const start = text.length - text.trimStart().length;
	const places: Place[] = [];
	const whole =
		fences.length === 1 && fences[0].start <= start && !text.slice(fences[0].end).trim();
	if (start < text.length) places.push({ at: start, whole: fences.length ? whole : true });
	for (
		let line = text.indexOf('\n', start);
		line >= 0 && line < start + LEAD_IN_CHARS;
		line = text.indexOf('\n', line + 1)
	) {
		const at = line + 1 + (/^[ \t]*/.exec(text.slice(line + 1, line + 64))?.[0].length ?? 0);
		if (!/^(?:[{[]|```)/.test(text.slice(at, at + 3)) || inFence(fences, at)) continue;
		if (!isLeadIn(text.slice(start, at))) break;
		places.push({ at, whole: false });
		break;
	}
	return places;
}

/**
 * Whether calls without a marker stand as a call stands: prose before them or a closing sentence
 * after them, not both (an example between two paragraphs of an explanation is an example); and
 * after prose, a name that is no bound tool makes them an example, not an attempt to correct.
 */
function standsAlone(text: string, at: number, calls: WrittenCall[], tools: BoundTool[]): boolean {
	const after = text.slice(calls[calls.length - 1].end);
	const before = text.slice(0, at).trim();
	if (!isClosing(after) || (before && after.trim())) return false;
	if (before) for (const call of calls) call.mayBeData ||= !toolNamed(call.name, tools);
	return true;
}

/**
 * Whether calls after a label prose writes too (ReAct's `Action:`) stand as the answer: prose
 * (a thought) before them or more text after them (an observation aside), not both; an example
 * inside an explanation is an example.
 */
function labelsStandAlone(text: string, calls: WrittenCall[]): boolean {
	if (!calls.length) return true;
	const after = text.slice(calls[calls.length - 1].end).trim();
	return !after || /^Observation[ \t]*:/i.test(after) || !proseBefore(text, calls[0].start);
}

interface Found {
	calls: WrittenCall[];
	marked: boolean;
}

function callsAt(
	text: string,
	place: Place,
	tools: BoundTool[],
	families: CallFamily[],
): Found | undefined {
	for (const family of families) {
		if (place.marker) {
			if (!family.markers.includes(place.marker)) continue;
			let calls = family.read(text, place.at, tools);
			// a marker inside a sentence is a call only where it names a bound tool and ends the
			// sentence's line: else prose about it ("you would write <invoke …>…</invoke> inside …")
			if (inSentence(text, place.at))
				calls = calls.filter(
					(call) => toolNamed(call.name, tools) && endsItsLine(text, calls[calls.length - 1].end),
				);
			if (!family.markersMeanACall && !labelsStandAlone(text, calls)) continue;
			if (calls.length) return { calls, marked: true };
		} else if (family.readOpening) {
			const calls = family.readOpening(text, place.at, { whole: !!place.whole }, tools);
			if (calls.length && standsAlone(text, place.at, calls, tools))
				return { calls, marked: false };
		}
	}
	return undefined;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Markers, fence openings and labels at the end of the prose before a call: not part of it. */
const LEFT_BEFORE_CALL = new RegExp(
	`(?:\\s|\`\`\`[\\w-]*|<\\/?[\\w:]*(?:tool|function|TOOLCALL)[\\w:]*>|<\\|[\\w▁]+\\|>|<｜[^｜>]+｜>|function<[|｜]tool[▁_]sep[|｜]>|Action[ \\t]*:|${MARKERS.map(escaped).join('|')})+$`,
	'i',
);

/** The text before the first call, without the fence, tag, token or label that opens the call. */
function proseBefore(text: string, start: number): string {
	return text.slice(0, start).replace(LEFT_BEFORE_CALL, '').trim();
}

const ASKED_OPENING = /^\s*(?:```[\w-]*\s*)?\{\s*["']?tool_calls?["']?\s*:/;

/** An attempt at a call that nothing could be read from, if the answer is one. */
function attemptProblem(text: string, places: Place[], families: CallFamily[]): string | undefined {
	if (ASKED_OPENING.test(text)) {
		const piece = text.trim();
		return `it is not valid JSON: ${piece.length > 120 ? `${piece.slice(0, 120)}…` : piece}`;
	}
	const attempt = places.some(
		(place) =>
			place.marker &&
			!inSentence(text, place.at) &&
			tagVerdict(place.marker, text.slice(place.at + place.marker.length), true) === 'call' &&
			families.some((family) => family.markersMeanACall && family.markers.includes(place.marker!)),
	);
	return attempt ? 'it names a tool call but holds no readable one' : undefined;
}

const MARKERS_OF = new WeakMap<CallFamily[], string[]>([[FAMILIES, MARKERS]]);

/** The families' markers, once each, listed once per list of families. */
function markersOf(families: CallFamily[]): string[] {
	let markers = MARKERS_OF.get(families);
	if (!markers) {
		markers = [...new Set(families.flatMap((family) => family.markers))];
		MARKERS_OF.set(families, markers);
	}
	return markers;
}

/**
 * What the model's answer is: tool calls (with the prose before them), the final answer, or an
 * attempt at a call that cannot be used. `families`: the formats its model writes (all when not
 * known).
 */
export function readToolsAnswer(
	reply: string,
	tools: BoundTool[],
	families: CallFamily[] = FAMILIES,
): ToolsAnswer {
	const { reasoning, text } = splitReasoning(reply);
	const thought = reasoning ? { reasoning } : {};
	for (const family of families) {
		const final = family.readFinal?.(text.trim());
		if (final !== undefined) return { kind: 'final', text: final, ...thought };
	}
	const fences = fencesOf(text);
	const markers = markersOf(families);
	const places = [...markerPlaces(text, fences, markers), ...openingPlaces(text, fences)].sort(
		(a, b) => a.at - b.at,
	);
	let found: Found | undefined;
	for (const place of places) if ((found = callsAt(text, place, tools, families))) break;
	if (!found) {
		const problem = attemptProblem(text, places, families);
		return problem
			? { kind: 'malformed', problem, ...thought }
			: { kind: 'final', text, ...thought };
	}
	const calls: ToolCall[] = [];
	for (const written of found.calls) {
		const usable = usableCall(written, tools);
		if ('call' in usable) calls.push(usable.call);
		else if (found.calls.every((call) => call.mayBeData))
			return { kind: 'final', text, ...thought };
		else return { kind: 'malformed', problem: usable.problem, ...thought };
	}
	return { kind: 'calls', prose: proseBefore(text, found.calls[0].start), calls, ...thought };
}
