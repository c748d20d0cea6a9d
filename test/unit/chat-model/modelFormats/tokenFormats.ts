/**
 * Writers of the formats behind a family's tags or special tokens: DeepSeek, Kimi, harmony,
 * Mistral, Llama's tokens, the smaller JSON-in-tag families, Hermes, GLM, Qwen3-Coder and Seed-OSS,
 * Claude-style XML and MiniMax.
 */
import type { ToolCall } from '../../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/types';
import {
	argumentsJson,
	each,
	json,
	named,
	pythonCall,
	xmlParameters,
	type CallWriter,
} from './writing';

const deepseekToken = (words: string) => `<｜${words.split(' ').join('▁')}｜>`;
const invoke = (c: ToolCall) =>
	`<invoke name="${c.name}">\n${xmlParameters(c, (k, v) => `<parameter name="${k}">${v}</parameter>`)}\n</invoke>`;

export const TOKEN_WRITERS: Record<string, Record<string, CallWriter>> = {
	deepseek: {
		deepseek: (calls) =>
			`${deepseekToken('tool calls begin')}${calls
				.map(
					(c) =>
						`${deepseekToken('tool call begin')}function${deepseekToken('tool sep')}${c.name}\n\`\`\`json\n${argumentsJson(c)}\n\`\`\`${deepseekToken('tool call end')}`,
				)
				.join('\n')}${deepseekToken('tool calls end')}`,
		'deepseek-v3.1': (calls) =>
			`${deepseekToken('tool calls begin')}${calls
				.map(
					(c) =>
						`${deepseekToken('tool call begin')}${c.name}${deepseekToken('tool sep')}${argumentsJson(c)}${deepseekToken('tool call end')}`,
				)
				.join('')}${deepseekToken('tool calls end')}`,
	},
	kimi: {
		kimi: (calls) =>
			`<|tool_calls_section_begin|>${calls
				.map(
					(c, i) =>
						`<|tool_call_begin|>functions.${c.name}:${i} <|tool_call_argument_begin|>${argumentsJson(c)}<|tool_call_end|>`,
				)
				.join('')}<|tool_calls_section_end|>`,
	},
	harmony: {
		harmony: (calls) =>
			calls
				.map(
					(c) =>
						`<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${argumentsJson(c)}<|call|>`,
				)
				.join(''),
	},
	mistral: {
		mistral: (calls) => `[TOOL_CALLS]${json(calls.map(named))}`,
		'mistral-v11': (calls) =>
			calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${argumentsJson(c)}`).join(''),
		'mistral-v11-bare': (calls) =>
			calls.map((c) => `[TOOL_CALLS]${c.name}${argumentsJson(c)}`).join(''),
	},
	llama: {
		'python-tag': (calls) =>
			`<|python_tag|>${calls.map((c) => json({ name: c.name, parameters: c.arguments })).join('; ')}`,
		llama4: (calls) => `<|python_start|>[${calls.map(pythonCall).join(', ')}]<|python_end|>`,
	},
	'json-tags': {
		granite: (calls) => `<|tool_call|>${json(calls.map(named))}`,
		nemotron: (calls) => `<TOOLCALL>${json(calls.map(named))}</TOOLCALL>`,
		phi4: (calls) => `functools${json(calls.map(named))}`,
		'tool-calls-tag': (calls) => `<tool_calls>${json(calls.map(named))}</tool_calls>`,
		'function-call-tag': each((c) => `<function_call>${json(named(c))}</function_call>`),
	},
	hermes: { hermes: each((c) => `<tool_call>\n${json(named(c))}\n</tool_call>`) },
	glm: {
		glm: each(
			(c) =>
				`<tool_call>${c.name}\n${xmlParameters(c, (k, v) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>`)}\n</tool_call>`,
		),
	},
	'qwen3-coder': {
		'qwen3-coder': each(
			(c) =>
				`<tool_call>\n<function=${c.name}>\n${xmlParameters(c, (k, v) => `<parameter=${k}>\n${v}\n</parameter>`)}\n</function>\n</tool_call>`,
		),
		'seed-oss': each(
			(c) =>
				`<seed:tool_call>\n<function=${c.name}>\n${xmlParameters(c, (k, v) => `<parameter=${k}>${v}</parameter>`)}\n</function>\n</seed:tool_call>`,
		),
	},
	'claude-xml': {
		'claude-xml': (calls) => `<function_calls>\n${calls.map(invoke).join('\n')}\n</function_calls>`,
		minimax: (calls) =>
			`<minimax:tool_call>\n${calls.map(invoke).join('\n')}\n</minimax:tool_call>`,
	},
};
