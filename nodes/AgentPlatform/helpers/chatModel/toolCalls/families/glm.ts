/**
 * GLM 4.5 / 4.7: `<tool_call>add<arg_key>a</arg_key><arg_value>2</arg_value></tool_call>` (vLLM
 * `glm4_moe_tool_parser.py`). Parameter values are texts.
 */
import type { CallFamily, WrittenCall } from '../types';
import { callsMatched } from './patternCalls';
import { pairs } from './xmlPairs';

const CALL = /<tool_call>\s*([\w.:-]+)\s*((?:<arg_key>[\s\S]*?<\/arg_value>\s*)*)<\/tool_call>/g;
const PARAMETER = /<arg_key>\s*([\s\S]*?)\s*<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g;

const read = (text: string, at: number): WrittenCall[] =>
	callsMatched(text, at, CALL, (match) => ({
		name: match[1],
		arguments: pairs(match[2], PARAMETER),
		xml: true,
	}));

export const glm: CallFamily = {
	name: 'glm',
	models: /glm/i,
	markers: ['<tool_call>'],
	markersMeanACall: true,
	read,
};
