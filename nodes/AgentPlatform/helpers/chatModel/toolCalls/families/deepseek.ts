/**
 * DeepSeek V3 / V3.1 (full-width bars): `<｜tool▁call▁begin｜>function<｜tool▁sep｜>add` and the
 * arguments fenced (V3), `add<｜tool▁sep｜>{…}` (V3.1) (vLLM `deepseekv3_tool_parser.py`,
 * `deepseekv31_tool_parser.py`).
 */
import { jsonAt } from './jsonShapes';
import type { CallFamily, WrittenCall } from '../types';
import { FULL_WIDTH_TOKEN_END, inBlocks, TOKEN_END } from './blocks';
import { callsMatched } from './patternCalls';

const BAR = '[|｜]';
const token = (words: string) => `<${BAR}${words.split(' ').join('▁')}${BAR}>`;
const CALL = new RegExp(
	`${token('tool call begin')}([\\s\\S]*?)(?:${token('tool call end')}|$)`,
	'g',
);
const SEP = new RegExp(token('tool sep'));

/** The section's token, with either bar: it opens the block. */
const SECTIONS = ['<｜tool▁calls▁begin｜>', '<|tool▁calls▁begin|>'];

const read = inBlocks(SECTIONS, (text: string, at: number): WrittenCall[] =>
	callsMatched(text, at, CALL, (match) => {
		const parts = match[1].split(SEP);
		const [name, args] =
			parts[0].trim() === 'function' && parts.length > 1
				? [parts[1].split('\n')[0], parts[1].slice(parts[1].indexOf('\n') + 1)]
				: [parts[0], parts.slice(1).join('')];
		const parsed = jsonAt(args, 0);
		return { name: name.trim(), arguments: parsed ? parsed.value : args.trim() };
	}),
);

export const deepseek: CallFamily = {
	name: 'deepseek',
	models: /deepseek/i,
	markers: [...SECTIONS, '<｜tool▁call▁begin｜>', '<|tool▁call▁begin|>'],
	markersMeanACall: true,
	read,
	tokenEnds: [FULL_WIDTH_TOKEN_END, TOKEN_END],
	// R1 and its distills: the prompt opens the reasoning (vLLM's deepseek_r1 reasoning parser)
	reasoning: {
		tags: [['<think>', '</think>']],
		openedInPrompt: /deepseek[\w.-]*?r1|\br1[-_]distill/i,
	},
};
