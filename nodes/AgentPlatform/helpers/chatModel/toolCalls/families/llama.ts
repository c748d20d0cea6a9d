/**
 * Llama 3.x and 4 behind their special tokens: `<|python_tag|>{"name": …, "parameters": …}; {…}`
 * (vLLM `llama3_json_tool_parser.py`) and `<|python_start|>[add(a=2)]<|python_end|>` (vLLM
 * `llama4_pythonic_tool_parser.py`); either token may carry JSON or a call list.
 */
import type { BoundTool, CallFamily, WrittenCall } from '../types';
import { TOKEN_END } from './blocks';
import { markedJsonCalls } from './markedJson';
import { pythonCallsFrom } from './pythonic';

const MARKERS = ['<|python_tag|>', '<|python_start|>'];
const asJson = markedJsonCalls(MARKERS);

function read(text: string, at: number, tools: BoundTool[]): WrittenCall[] {
	const found = asJson(text, at, tools);
	if (found.length) return found;
	const marker = MARKERS.map((m) => [text.indexOf(m, at), m.length]).find(([i]) => i >= 0);
	if (!marker) return [];
	let from = marker[0] + marker[1];
	while (/\s/.test(text[from] ?? '')) from++;
	const bracket = text[from] === '[';
	const calls = pythonCallsFrom(text, bracket ? from + 1 : from, bracket ? ']' : undefined);
	return calls.map((call, n) => (n ? call : { ...call, start: marker[0] }));
}

export const llama: CallFamily = {
	name: 'llama',
	models: /llama/i,
	markers: MARKERS,
	markersMeanACall: true,
	read,
	tokenEnds: [TOKEN_END],
};
