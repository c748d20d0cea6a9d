/**
 * Calls written as JSON after a family's marker (`<tool_call>{…}`, `<|python_tag|>{…}; {…}`,
 * `[TOOL_CALLS][…]`, `functools[…]`): every marker from `at` on, each followed by one or more JSON
 * values (separated by `;` or `,`); a value in the marker counts whatever its name (a call of a
 * tool that does not exist is one to correct).
 */
import { callsOf, jsonAt } from './jsonShapes';
import type { BoundTool, WrittenCall } from '../types';

export function markedJsonCalls(markers: string[]) {
	return (text: string, at: number, tools: BoundTool[]): WrittenCall[] => {
		const calls: WrittenCall[] = [];
		// where each marker is next found: searched again only once passed, so each text is
		// searched once per marker (linear however many markers stand in it)
		const next = markers.map((marker) => text.indexOf(marker, at));
		let from = at;
		for (;;) {
			let marker = -1;
			let length = 0;
			for (const [index, each] of markers.entries()) {
				if (next[index] >= 0 && next[index] < from) next[index] = text.indexOf(each, from);
				const found = next[index];
				if (found >= 0 && (marker < 0 || found < marker)) [marker, length] = [found, each.length];
			}
			if (marker < 0) return calls;
			const read = jsonAfterMarker(text, marker, length, tools);
			calls.push(...read.calls);
			from = Math.max(read.end, marker + length);
		}
	};
}

/** The JSON calls right after one marker at `marker`, and where they end. */
export function jsonAfterMarker(text: string, marker: number, length: number, tools: BoundTool[]) {
	const calls: WrittenCall[] = [];
	let next = marker + length;
	let start = marker;
	for (;;) {
		const value = jsonAt(text, next);
		const found = value && callsOf(value.value, tools, true);
		if (!value || !found) break;
		calls.push(...found.map((call) => ({ ...call, start, end: value.end })));
		next = value.end;
		const separator = /^\s*[;,]?\s*/.exec(text.slice(next, next + 16))![0].length;
		start = next + separator;
		if (!/^[{[]/.test(text.slice(start, start + 1))) break;
		next = start;
	}
	return { calls, end: next };
}
