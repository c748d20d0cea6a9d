/**
 * OpenAI harmony (gpt-oss): `<|start|>assistant<|channel|>commentary to=functions.add
 * <|constrain|>json<|message|>{…}<|call|>` (vLLM `openai_tool_parser.py`); its final channel is
 * the answer; its analysis channel is reasoning (taken out here, by reasoning.ts's call).
 */
import type { CallFamily, ReasoningFormat } from '../types';
import { TOKEN_END } from './blocks';
import { patternCalls } from './patternCalls';

const CALL =
	/(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*commentary\s*)?to=([\w.:-]+)[^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/g;

const read = patternCalls(CALL);

const ANALYSIS =
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*analysis\s*<\|message\|>([\s\S]*?)(?:<\|end\|>|(?=<\|start\|>|<\|channel\|>)|$)/g;
const FINAL =
	/(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*final\s*<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/g;
/** Its channels only where its token is: no pattern run over every answer. */
const CHANNEL = '<|channel|>';

const reasoning: ReasoningFormat = {
	channels: {
		reasoning: [
			['<|start|>assistant<|channel|>analysis<|message|>', '<|end|>'],
			['<|channel|>analysis<|message|>', '<|end|>'],
		],
		wrappers: [
			'<|start|>assistant<|channel|>final<|message|>',
			'<|channel|>final<|message|>',
			'<|return|>',
		],
		// its tokens wrap reasoning and answer alike: pending with or without tools
		tokens: ['<|start|>', CHANNEL],
		takeOut: (reply, thoughts) =>
			reply.includes(CHANNEL)
				? reply.replace(ANALYSIS, (_, thought: string) => {
						thoughts.push(thought.trim());
						return '';
					})
				: reply,
		unwrap: (answer) =>
			answer.includes(CHANNEL) ? answer.replace(FINAL, (_, final: string) => final) : answer,
	},
};

export const harmony: CallFamily = {
	name: 'harmony',
	models: /gpt-oss/i,
	markers: ['<|start|>assistant<|channel|>commentary', '<|channel|>commentary', 'to=functions.'],
	markersMeanACall: true,
	read,
	tokenEnds: [TOKEN_END],
	reasoning,
};
