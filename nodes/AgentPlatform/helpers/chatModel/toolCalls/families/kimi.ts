/**
 * Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.add:0
 * <|tool_call_argument_begin|>{…}<|tool_call_end|>` (vLLM `kimi_k2_tool_parser.py`).
 */
import type { CallFamily } from '../types';
import { inBlocks, TOKEN_END } from './blocks';
import { patternCalls } from './patternCalls';

const CALL =
	/<\|tool_call_begin\|>\s*([^<\s]+)\s*<\|tool_call_argument_begin\|>([\s\S]*?)(?:<\|tool_call_end\|>|$)/g;

const SECTION = '<|tool_calls_section_begin|>';

const read = inBlocks([SECTION], patternCalls(CALL));

export const kimi: CallFamily = {
	name: 'kimi',
	models: /kimi|moonshot/i,
	markers: [SECTION, '<|tool_call_begin|>'],
	markersMeanACall: true,
	read,
	tokenEnds: [TOKEN_END],
	reasoning: { tags: [['◁think▷', '◁/think▷']] },
};
