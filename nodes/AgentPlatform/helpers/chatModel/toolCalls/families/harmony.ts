/**
 * OpenAI harmony (gpt-oss): `<|start|>assistant<|channel|>commentary to=functions.add
 * <|constrain|>json<|message|>{…}<|call|>` (vLLM `openai_tool_parser.py`); its final channel is
 * the answer (reasoning.ts takes the analysis channel out and unwraps the final one).
 */
import type { CallFamily, WrittenCall } from '../types';
import { argumentsJson } from './writing';

const CALL =
	/(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*commentary\s*)?to=([\w.:-]+)[^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/g;

function read(text: string, at: number): WrittenCall[] {
	return [...text.slice(at).matchAll(CALL)].map((match) => ({
		start: at + match.index,
		end: at + match.index + match[0].length,
		name: match[1],
		arguments: match[2].trim(),
	}));
}

export const harmony: CallFamily = {
	name: 'harmony',
	models: /gpt-oss/i,
	markers: ['<|start|>assistant<|channel|>commentary', '<|channel|>commentary', 'to=functions.'],
	markersMeanACall: true,
	read,
	writers: {
		harmony: (calls) =>
			calls
				.map(
					(c) =>
						`<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${argumentsJson(c)}<|call|>`,
				)
				.join(''),
	},
	finalWriters: {
		harmony: (answer) => `<|start|>assistant<|channel|>final<|message|>${answer}<|return|>`,
	},
};
