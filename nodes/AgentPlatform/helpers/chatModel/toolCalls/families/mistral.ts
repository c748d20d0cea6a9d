/**
 * Mistral: `[TOOL_CALLS][{…}, {…}]`; v11 `[TOOL_CALLS]add{…}`, also with `[ARGS]` and
 * `[CALL_ID]…` (vLLM `mistral_tool_parser.py`, SGLang `mistral_detector.py`).
 */
import { toolNamed } from '../arguments';
import { jsonAt } from './jsonShapes';
import type { BoundTool, CallFamily, WrittenCall } from '../types';
import { jsonAfterMarker } from './markedJson';

const MARKER = '[TOOL_CALLS]';
const V11 = /^\s*([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\][\w-]*)?\s*(?:\[ARGS\])?/;

function read(text: string, at: number, tools: BoundTool[]): WrittenCall[] {
	const calls: WrittenCall[] = [];
	for (
		let marker = text.indexOf(MARKER, at);
		marker >= 0;
		marker = text.indexOf(MARKER, marker + 1)
	) {
		const after = marker + MARKER.length;
		const name = V11.exec(text.slice(after, after + 200));
		if (!name) {
			calls.push(...jsonAfterMarker(text, marker, MARKER.length, tools).calls);
			continue;
		}
		const args = jsonAt(text, after + name[0].length);
		// a word after the token and no arguments: a sentence about the token, not a call
		if (!args && !toolNamed(name[1], tools)) continue;
		const end = args?.end ?? after + name[0].length;
		calls.push({ start: marker, end, name: name[1], arguments: args?.value ?? {} });
	}
	return calls;
}

export const mistral: CallFamily = {
	name: 'mistral',
	models: /mistral|mixtral|magistral|codestral|ministral|devstral/i,
	markers: [MARKER],
	markersMeanACall: true,
	read,
};
