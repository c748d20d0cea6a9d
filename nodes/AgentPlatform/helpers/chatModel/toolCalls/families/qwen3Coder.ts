/**
 * Qwen3-Coder and Seed-OSS: `<tool_call><function=add><parameter=a>2</parameter></function></tool_call>`,
 * `<seed:tool_call>…`; Llama 3.1's `<function=add>{"a": 2}</function>` with JSON (vLLM
 * `qwen3coder_tool_parser.py`, `seed_oss_tool_parser.py`). Parameter values are texts.
 */
import type { CallFamily, WrittenCall } from '../types';
import { inBlocks } from './blocks';
import { callsMatched } from './patternCalls';
import { pairs, unquote } from './xmlPairs';

const CALL = /<function=([^>\s]+)\s*>([\s\S]*?)(?:<\/function>|$)/g;
const PARAMETER = /<parameter=([^>]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;

/** Each call's block: Qwen3-Coder's tag, Seed-OSS's. */
const BLOCKS = ['<tool_call>', '<seed:tool_call>'];

const read = inBlocks(BLOCKS, (text: string, at: number): WrittenCall[] =>
	callsMatched(text, at, CALL, (match) => {
		const json = !match[2].includes('<parameter=');
		return {
			name: unquote(match[1]),
			arguments: json ? match[2].trim() : pairs(match[2], PARAMETER),
			xml: !json,
		};
	}),
);

export const qwen3Coder: CallFamily = {
	name: 'qwen3-coder',
	models: /qwen3[\w.-]*coder|seed-?oss/i,
	markers: ['<function=', '<seed:tool_call>'],
	markersMeanACall: true,
	read,
	// Seed-OSS's reasoning tag (vLLM's seed_oss reasoning parser)
	reasoning: { tags: [['<seed:think>', '</seed:think>']] },
};
