/**
 * The package's own call shape, which its prompt asks every model for (toolsProtocol.ts):
 * `{"tool_call": {"name": …, "arguments": …}}`, or `{"tool_calls": […]}`. Its key is a marker: in
 * any quoting a model writes, pretty-printed or on one line, wherever it stands outside code (prose
 * before or after it is the commonest way models miss a prompted format: BFCL). Where the JSON is
 * broken the call was still meant: one correction.
 */
import { callsOf, jsonAt } from './jsonShapes';
import type { BoundTool, CallFamily, Verdict, WrittenCall } from '../types';

/** The asked object's opening: its first key `tool_call` or `tool_calls`, quoted or bare. */
export const ASKED_KEY = /\{\s*(?:"tool_calls?"|'tool_calls?'|tool_calls?)\s*:/g;

/** The asked calls from `at` on: one object after each key found, in order. */
function read(text: string, at: number, tools: BoundTool[]): WrittenCall[] {
	const calls: WrittenCall[] = [];
	const key = new RegExp(ASKED_KEY.source, 'g');
	key.lastIndex = at;
	for (let found = key.exec(text); found; found = key.exec(text)) {
		const value = jsonAt(text, found.index);
		const read = value && callsOf(value.value, tools, true);
		if (!value || !read) continue;
		calls.push(...read.map((call) => ({ ...call, start: found!.index, end: value.end })));
		key.lastIndex = value.end;
	}
	return calls;
}

const ASKED_AT_START = new RegExp(`^${ASKED_KEY.source}`);

/** The asked object's key at the start of `text`, whole or not yet (decided within 32 characters). */
function patternVerdict(text: string): Verdict {
	if (ASKED_AT_START.test(text)) return 'call';
	const pending = /^\{\s*(["']?)([a-z_]*)(["']?)\s*$/.exec(text.slice(0, 32));
	if (!pending || text.length >= 32) return 'text';
	const [, open, word, close] = pending;
	if (close && (close !== open || !/^tool_calls?$/.test(word))) return 'text';
	return 'tool_calls'.startsWith(word) ? 'undecided' : 'text';
}

/** Broken JSON after its key: the call was meant. */
function attempt(text: string, at: number): string {
	const piece = text.slice(at).trim();
	return `it is not valid JSON: ${piece.length > 120 ? `${piece.slice(0, 120)}…` : piece}`;
}

export const asked: CallFamily = {
	name: 'asked',
	markers: [],
	markerPattern: ASKED_KEY,
	markersMeanACall: true,
	read,
	patternStarts: '{',
	patternVerdict,
	attempt,
};
