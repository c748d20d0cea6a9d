/**
 * XML with named parameters: `<invoke name="add"><parameter name="a">2</parameter></invoke>`
 * inside `<function_calls>` (Claude-style), MiniMax's `<minimax:tool_call>`, Step-3's
 * `<steptml:invoke>`, or alone; the older `<invoke><tool_name>…`; a call list inside
 * `<function_calls>` (vLLM `minimax_m2_tool_parser.py`, `step3_tool_parser.py`).
 */
import type { CallFamily, WrittenCall } from '../types';
import { pythonCallsFrom } from './pythonic';
import { pairs } from './xmlPairs';

const MARKERS = ['<function_calls>', '<invoke', '<minimax:tool_call>', '<steptml:invoke'];

function read(text: string, at: number): WrittenCall[] {
	const region = text.slice(at);
	const named = [
		...region.matchAll(
			/<(?:\w+:)?invoke\s+name\s*=\s*["']([^"']+)["']\s*>([\s\S]*?)(?:<\/(?:\w+:)?invoke>|$)/g,
		),
	].map((match) => ({
		start: at + match.index,
		end: at + match.index + match[0].length,
		name: match[1],
		arguments: pairs(
			match[2],
			/<(?:\w+:)?parameter\s+name\s*=\s*(["'][^"']+["'])\s*>([\s\S]*?)<\/(?:\w+:)?parameter>/g,
		),
		xml: true,
	}));
	const older = [
		...region.matchAll(
			/<invoke>\s*<tool_name>([^<]+)<\/tool_name>\s*(?:<parameters>([\s\S]*?)<\/parameters>)?/g,
		),
	].map((match) => ({
		start: at + match.index,
		end: at + match.index + match[0].length,
		name: match[1].trim(),
		arguments: pairs(match[2] ?? '', /<([\w-]+)>([\s\S]*?)<\/\1>/g),
		xml: true,
	}));
	const calls = [...named, ...older].sort((a, b) => a.start - b.start);
	if (calls.length) return calls;
	const list = region.indexOf('<function_calls>');
	return list < 0 ? [] : pythonCallsFrom(text, at + list + '<function_calls>'.length);
}

export const claudeXml: CallFamily = {
	name: 'claude-xml',
	models: /claude|minimax|step-?3/i,
	markers: MARKERS,
	markersMeanACall: true,
	read,
};
