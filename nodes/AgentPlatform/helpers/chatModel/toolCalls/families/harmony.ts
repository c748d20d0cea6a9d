/**
 * OpenAI harmony (gpt-oss): `<|start|>assistant<|channel|>commentary to=functions.add
 * <|constrain|>json<|message|>{…}<|call|>` (vLLM `openai_tool_parser.py`); its final channel is
 * the answer (reasoning.ts takes the analysis channel out and unwraps the final one).
 */
import type { CallFamily } from '../types';
import { patternCalls } from './patternCalls';

const CALL =
	/(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*commentary\s*)?to=([\w.:-]+)[^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/g;

const read = patternCalls(CALL);

export const harmony: CallFamily = {
	name: 'harmony',
	models: /gpt-oss/i,
	markers: ['<|start|>assistant<|channel|>commentary', '<|channel|>commentary', 'to=functions.'],
	markersMeanACall: true,
	read,
};
