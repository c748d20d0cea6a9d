/**
 * ReAct's `Action: <tool>` and `Action Input: <arguments>` (LangChain `react_single_input.py`): the
 * input a JSON value (fenced or not) or, for a one-field tool, the text on its line; LangChain's
 * structured chat and Cohere's `Action:` with fenced JSON. `Final Answer:` is an answer. `Action:`
 * is a word prose writes too (meeting notes), so nothing readable after it is prose.
 */
import { FENCE_LANGUAGE, FENCE_RUN } from '../../../output/codeFences';
import { callsOf, jsonAt } from './jsonShapes';
import { parseLoose } from '../looseJson';
import { fenceRunAt, mayBecomeFenceRun } from '../../../output/codeFences';
import { DECIDED_WITHIN } from '../openingVerdicts';
import type { BoundTool, CallFamily, Verdict, WrittenCall } from '../types';
import { matchesFrom } from './patternCalls';

/** The name takes the rest of its line at once (trimmed after): no backtracking over spaces. */
const REACT = new RegExp(
	`${
		/^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*`?([^\s`{[][^\n`{[]*)`?\n[ \t]*Action[ \t]*\d*[ \t]+Input[ \t]*\d*[ \t]*:[ \t]*/
			.source
	}(?:${FENCE_RUN}${FENCE_LANGUAGE}\\s*)?`,
	'gim',
);
const STRUCTURED = new RegExp(`^[ \\t]*Action[ \\t]*:(?=\\s*(?:${FENCE_RUN}|[{[]))`, 'gim');
const FENCE_AFTER = new RegExp(`^\\s*${FENCE_RUN}`);

function read(text: string, at: number, tools: BoundTool[]): WrittenCall[] {
	const calls: WrittenCall[] = [...matchesFrom(text, at, REACT)].map((match) => {
		const from = match.index + match[0].length;
		const parsed = /[{["]/.test(text[from] ?? '') ? parseLoose(text, from) : undefined;
		const line = /^[^\n]*/.exec(text.slice(from, from + 4096))![0];
		const end = parsed ? parsed.end : from + line.length;
		const fence = FENCE_AFTER.exec(text.slice(end, end + 16))?.[0].length ?? 0;
		return {
			start: match.index,
			end: end + fence,
			name: match[1].trim(),
			arguments: parsed ? parsed.value : line.trim(),
		};
	});
	for (const match of matchesFrom(text, at, STRUCTURED)) {
		const value = jsonAt(text, match.index + match[0].length);
		const found = value && callsOf(value.value, tools, true);
		if (value && found)
			calls.push(...found.map((call) => ({ ...call, start: match.index, end: value.end })));
	}
	return calls.sort((a, b) => a.start - b.start);
}

/** JSON or a fence. */
const opensCall = (text: string) => /^[{[]/.test(text) || !!fenceRunAt(text, 0);

/** `Action:` at a line's start: a call's label only when its input or JSON follows. */
function markerVerdict(_marker: string, text: string, lineStart: boolean): Verdict {
	if (!lineStart) return 'text';
	const same = /^Action[ \t]*:[ \t]*([^\n]*)(\n?)([^\n]*)/.exec(text)!;
	if (opensCall(same[1])) return 'call';
	if (!same[2]) return same[1].length < 200 && text.length < DECIDED_WITHIN ? 'undecided' : 'text';
	const next = same[3].trimStart();
	if (opensCall(next) || /^Action[ \t]*\d*[ \t]+Input/i.test(next)) return 'call';
	return 'Action Input'.startsWith(next) || mayBecomeFenceRun(next) ? 'undecided' : 'text';
}

/**
 * Whether its calls stand as the answer: prose (a thought) before them or more text after them
 * (an observation aside, or its start where the stop word cut it), not both; an example inside an
 * explanation is an example.
 */
function standsAlone(text: string, calls: WrittenCall[]) {
	const after = text.slice(calls[calls.length - 1].end).trim();
	const observation = /^Observation[ \t]*:/i.test(after) || 'Observation'.startsWith(after);
	return !after || observation || !text.slice(0, calls[0].start).trim();
}

export const react: CallFamily = {
	name: 'react',
	markers: ['Action:'],
	markersMeanACall: false,
	read,
	markerVerdict,
	standsAlone,
};
