/**
 * Hermes and Qwen 2.5 / 3: `<tool_call>{"name": …, "arguments": …}</tool_call>`, repeated per call
 * (vLLM `hermes_tool_parser.py`, SGLang `hermes_detector.py`). GLM and Qwen3-Coder open their
 * calls with the same tag (glm.ts, qwen3Coder.ts).
 */
import type { CallFamily } from '../types';
import { markedJsonCalls } from './markedJson';

export const hermes: CallFamily = {
	name: 'hermes',
	models: /hermes|qwen(?!3[\w.-]*coder)/i,
	markers: ['<tool_call>'],
	markersMeanACall: true,
	read: markedJsonCalls(['<tool_call>']),
	// QwQ and Qwen3's thinking models: the prompt opens the reasoning (vLLM's qwen3 parser)
	reasoning: { tags: [['<think>', '</think>']], openedInPrompt: /\bqwq\b|qwen3[\w.-]*thinking/i },
};
