/**
 * Reads a model's answer for tool calls (docs/chat-model.md, "Tool calls read"): reasoning taken
 * out first, wherever it stands outside code; code found once (code.ts), and nothing in it read by
 * any family; a call read only where the answer is one (answerLayout.ts): after a family's marker
 * outside code, or, without a marker, where the answer opens with it or after the prose a family
 * writes before a call; a fenced block that is the whole answer and holds only a call is one. Each
 * family (families/) reads once from its first marker: linear in the answer's length.
 */
import { toolNamed, usableCall } from './arguments';
import { fenceRunAt } from '../../output/codeFences';
import { atLineStart, endsItsLine, isClosing, isLeadIn, LEAD_IN_CHARS } from './answerLayout';
import { codeOf, type Code } from './code';
import { FAMILIES } from './families';
import { CLOSING_MARKUP, tagVerdict } from './families/blocks';
import { reasoningOf } from './reasoning';
import type { BoundTool, CallFamily, ToolCall, ToolsAnswer, WrittenCall } from './types';

export type { BoundTool, CallFamily, ToolCall, ToolsAnswer } from './types';
export { StreamedText } from './streamedText';
export { FAMILIES, familiesFor } from './families';

/** Where a call without a marker may open: the answer's start, or a line after its lead-in. */
function openingPlaces(text: string, code: Code): Array<{ at: number; whole: boolean }> {
	const start = text.length - text.trimStart().length;
	const { fences } = code;
	const places: Array<{ at: number; whole: boolean }> = [];
	const whole =
		fences.length === 1 && fences[0].start <= start && !text.slice(fences[0].end).trim();
	if (start < text.length) places.push({ at: start, whole: fences.length ? whole : true });
	for (
		let line = text.indexOf('\n', start);
		line >= 0 && line < start + LEAD_IN_CHARS;
		line = text.indexOf('\n', line + 1)
	) {
		const at = line + 1 + (/^[ \t]*/.exec(text.slice(line + 1, line + 64))?.[0].length ?? 0);
		if (!(/^[{[]/.test(text[at] ?? '') || fenceRunAt(text, at)) || code.fenceAround(at)) continue;
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

/** Where each family's markers first stand outside code, and every place of a pattern marker. */
function markerStarts(text: string, code: Code, family: CallFamily): number[] {
	const starts: number[] = [];
	for (const marker of family.markers)
		for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length))
			if (!code.inCode(at)) {
				starts.push(at);
				break;
			}
	if (family.markerPattern)
		for (const found of text.matchAll(new RegExp(family.markerPattern.source, 'g')))
			if (!code.inCode(found.index)) starts.push(found.index);
	return starts;
}

/**
 * The calls a family reads after its markers: none in code (but inside a fence a call of its own
 * opened, DeepSeek's fenced arguments); a marker inside a sentence a call only where it names a
 * bound tool and ends the sentence's line (else prose: "you would write <invoke …>…</invoke>").
 */
function markedCalls(text: string, code: Code, family: CallFamily, tools: BoundTool[]) {
	const starts = markerStarts(text, code, family);
	if (!starts.length) return [];
	const calls: WrittenCall[] = [];
	for (const call of family.read(text, Math.min(...starts), tools)) {
		const fence = code.fenceAround(call.start);
		const own = fence && calls.some((kept) => fence.start >= kept.start && fence.start < kept.end);
		if ((fence && !own) || (!fence && code.inCode(call.start))) continue;
		if (
			code.inSentence(call.start) &&
			!(toolNamed(call.name, tools) && endsItsLine(text, call.end))
		)
			continue;
		calls.push(call);
	}
	const alone = !family.standsAlone || !calls.length;
	return alone || family.standsAlone!(text, calls) ? calls : [];
}

/** The calls read first in the answer: by marker or where a call opens, the earliest. */
function firstCalls(text: string, code: Code, tools: BoundTool[], families: CallFamily[]) {
	let found: WrittenCall[] = [];
	for (const family of families) {
		const calls = markedCalls(text, code, family, tools);
		if (calls.length && (!found.length || calls[0].start < found[0].start)) found = calls;
	}
	for (const place of openingPlaces(text, code)) {
		if (found.length && found[0].start <= place.at) break;
		for (const family of families) {
			const calls = family.readOpening?.(text, place.at, { whole: place.whole }, tools) ?? [];
			if (calls.length && standsAlone(text, place.at, calls, tools)) return calls;
		}
	}
	return found;
}

/**
 * The text before a call: the answer up to where its family says the call's whole block begins
 * (the section's token, wrapper tag or fence that opens it), trimmed.
 */
const proseBefore = (text: string, call: WrittenCall) =>
	text.slice(0, call.blockStart ?? call.start).trim();

/**
 * A fenced block that is the whole answer (a lead-in allowed) and holds nothing but usable calls of
 * bound tools, in any family's format: the calls, not code (docs/chat-model.md); an example with
 * arguments its tool refuses stays code.
 */
function fencedCalls(text: string, code: Code, tools: BoundTool[], families: CallFamily[]) {
	if (code.fences.length !== 1) return undefined;
	const fence = code.fences[0];
	if (text.slice(fence.end).trim() || !isLeadIn(text.slice(0, fence.start))) return undefined;
	const inner = text.slice(fence.contentStart, fence.contentEnd);
	const calls = firstCalls(inner, codeOf(inner), tools, families);
	if (!calls.length || proseBefore(inner, calls[0])) return undefined;
	const rest = inner.slice(calls[calls.length - 1].end).replace(CLOSING_MARKUP, '');
	const usable = calls.every((call) => 'call' in usableCall(call, tools));
	if (/[\p{L}\p{N}]/u.test(rest) || !usable) return undefined;
	return { calls, prose: text.slice(0, fence.start).trim() };
}

/** A marker that opens a call by its family's verdict, with nothing readable after it. */
function markedAttempt(text: string, at: number, family: CallFamily): string | undefined {
	const marker = family.markers.find((each) => text.startsWith(each, at))!;
	const after = text.slice(at + marker.length);
	const verdict = family.markerVerdict
		? family.markerVerdict(marker, text.slice(at), atLineStart(text, at), true)
		: tagVerdict(after, true);
	return verdict === 'call' ? 'it names a tool call but holds no readable one' : undefined;
}

/** An attempt at a call that nothing could be read from, if the answer is one. */
function attemptProblem(text: string, code: Code, families: CallFamily[]): string | undefined {
	for (const family of families) {
		if (!family.markersMeanACall) continue;
		for (const at of markerStarts(text, code, family)) {
			if (code.inSentence(at)) continue;
			const problem = family.attempt ? family.attempt(text, at) : markedAttempt(text, at, family);
			if (problem) return problem;
		}
	}
	return undefined;
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
	const { split, code: codeFound } = reasoningOf(reply);
	const { reasoning, text } = split;
	const thought = reasoning ? { reasoning } : {};
	for (const family of families) {
		const final = family.readFinal?.(text.trim());
		if (final !== undefined) return { kind: 'final', text: final, ...thought };
	}
	const code = codeFound ?? codeOf(text);
	let found = firstCalls(text, code, tools, families);
	const fenced = found.length ? undefined : fencedCalls(text, code, tools, families);
	if (fenced) found = fenced.calls;
	if (!found.length) {
		const problem = attemptProblem(text, code, families);
		return problem
			? { kind: 'malformed', problem, ...thought }
			: { kind: 'final', text, ...thought };
	}
	const calls: ToolCall[] = [];
	for (const written of found) {
		const usable = usableCall(written, tools);
		if ('call' in usable) calls.push(usable.call);
		else if (found.every((call) => call.mayBeData)) return { kind: 'final', text, ...thought };
		else return { kind: 'malformed', problem: usable.problem, ...thought };
	}
	const prose = fenced?.prose ?? proseBefore(text, found[0]);
	return { kind: 'calls', prose, calls, ...thought };
}
