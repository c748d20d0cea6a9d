/**
 * GLM 4.5 / 4.7: `<tool_call>add<arg_key>a</arg_key><arg_value>2</arg_value></tool_call>` (vLLM
 * `glm4_moe_tool_parser.py`). Parameter values are texts.
 */
import type { CallFamily, WrittenCall } from '../types';
import { pairs } from './xmlPairs';

function read(text: string, at: number): WrittenCall[] {
	const region = text.slice(at);
	return [
		...region.matchAll(
			/<tool_call>\s*([\w.:-]+)\s*((?:<arg_key>[\s\S]*?<\/arg_value>\s*)*)<\/tool_call>/g,
		),
	].map((match) => ({
		start: at + match.index,
		end: at + match.index + match[0].length,
		name: match[1],
		arguments: pairs(
			match[2],
			/<arg_key>\s*([\s\S]*?)\s*<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g,
		),
		xml: true,
	}));
}

export const glm: CallFamily = {
	name: 'glm',
	models: /glm/i,
	markers: ['<tool_call>'],
	markersMeanACall: true,
	read,
};
