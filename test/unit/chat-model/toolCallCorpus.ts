/**
 * A corpus of tool calls as the model families and agent frameworks write them, built from the
 * literals in the public parsers' own tests (docs/chat-model.md, "Tool calls read", names each
 * family's source): per family a writer of one or several calls, from which the tests make one
 * call, two calls, prose before, after and between, and reasoning first.
 */
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

export const TOOLS: BoundTool[] = [
	{
		name: 'add',
		description: 'Adds two numbers',
		schema: {
			type: 'object',
			properties: { a: { type: 'number' }, b: { type: 'number' } },
			required: ['a', 'b'],
		},
	},
	{
		name: 'lookup',
		description: 'Looks a word up (a Code tool: one string)',
		schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
	},
];

export type Call = { name: string; arguments: Record<string, unknown> };
export const ADD: Call = { name: 'add', arguments: { a: 2, b: 3 } };
export const LOOKUP: Call = { name: 'lookup', arguments: { input: 'otter' } };

const json = (value: unknown) => JSON.stringify(value);
const args = (call: Call) => json(call.arguments);
const named = (call: Call) => ({ name: call.name, arguments: call.arguments });
const pythonArgs = (call: Call) =>
	Object.entries(call.arguments)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? `'${value}'` : value}`)
		.join(', ');
const xmlParameters = (call: Call, write: (key: string, value: unknown) => string) =>
	Object.entries(call.arguments)
		.map(([key, value]) => write(key, value))
		.join('\n');
const each =
	(write: (call: Call) => string, between = '\n') =>
	(calls: Call[]) =>
		calls.map(write).join(between);
const DS = (words: string) => `<｜${words.split(' ').join('▁')}｜>`;

/** [family, writer of the calls; `together`: several calls are one block, no prose between] */
export const FAMILIES: Array<{
	family: string;
	write: (calls: Call[]) => string;
	together?: boolean;
}> = [
	{ family: 'the asked shape', write: each((c) => json({ tool_call: named(c) })) },
	{
		family: 'OpenAI name + arguments as a JSON string',
		write: each((c) => json({ name: c.name, arguments: args(c) })),
	},
	{
		family: 'Hermes / Qwen <tool_call>',
		write: each((c) => `<tool_call>\n${json(named(c))}\n</tool_call>`),
	},
	{
		family: 'Llama 3 JSON, parameters, ;-separated',
		write: each((c) => json({ name: c.name, parameters: c.arguments }), '; '),
		together: true,
	},
	{
		family: 'Llama 3 <|python_tag|>',
		write: (calls) =>
			`<|python_tag|>${calls.map((c) => json({ name: c.name, parameters: c.arguments })).join('; ')}`,
		together: true,
	},
	{
		family: 'Mistral [TOOL_CALLS][…]',
		write: (calls) => `[TOOL_CALLS]${json(calls.map(named))}`,
		together: true,
	},
	{
		family: 'Mistral v11 [TOOL_CALLS]name{…}',
		write: (calls) => calls.map((c) => `[TOOL_CALLS]${c.name}${args(c)}`).join(''),
		together: true,
	},
	{
		family: 'Mistral v11 [ARGS]',
		write: (calls) => calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${args(c)}`).join(''),
		together: true,
	},
	{
		family: 'Granite <|tool_call|>',
		write: (calls) => `<|tool_call|>${json(calls.map(named))}`,
		together: true,
	},
	{ family: 'xLAM JSON array', write: (calls) => json(calls.map(named)), together: true },
	{
		family: '<tool_calls>[…]',
		write: (calls) => `<tool_calls>${json(calls.map(named))}</tool_calls>`,
		together: true,
	},
	{
		family: 'Nemotron <TOOLCALL>',
		write: (calls) => `<TOOLCALL>${json(calls.map(named))}</TOOLCALL>`,
		together: true,
	},
	{
		family: 'Phi-4-mini functools[…]',
		write: (calls) => `functools${json(calls.map(named))}`,
		together: true,
	},
	{
		family: '<function_call> tags',
		write: each((c) => `<function_call>${json(named(c))}</function_call>`),
	},
	{
		family: 'pythonic [add(a=2, b=3)]',
		write: (calls) => `[${calls.map((c) => `${c.name}(${pythonArgs(c)})`).join(', ')}]`,
		together: true,
	},
	{
		family: 'Llama 4 <|python_start|>',
		write: (calls) =>
			`<|python_start|>[${calls.map((c) => `${c.name}(${pythonArgs(c)})`).join(', ')}]<|python_end|>`,
		together: true,
	},
	{
		family: 'Claude-style <function_calls><invoke>',
		write: (calls) =>
			`<function_calls>\n${calls.map((c) => `<invoke name="${c.name}">\n${xmlParameters(c, (k, v) => `<parameter name="${k}">${v}</parameter>`)}\n</invoke>`).join('\n')}\n</function_calls>`,
		together: true,
	},
	{
		family: 'MiniMax <minimax:tool_call>',
		write: (calls) =>
			`<minimax:tool_call>\n${calls.map((c) => `<invoke name="${c.name}">\n${xmlParameters(c, (k, v) => `<parameter name="${k}">${v}</parameter>`)}\n</invoke>`).join('\n')}\n</minimax:tool_call>`,
		together: true,
	},
	{
		family: 'Qwen3-Coder <function=…><parameter=…>',
		write: each(
			(c) =>
				`<tool_call>\n<function=${c.name}>\n${xmlParameters(c, (k, v) => `<parameter=${k}>\n${v}\n</parameter>`)}\n</function>\n</tool_call>`,
		),
	},
	{
		family: 'Seed-OSS <seed:tool_call>',
		write: each(
			(c) =>
				`<seed:tool_call>\n<function=${c.name}>\n${xmlParameters(c, (k, v) => `<parameter=${k}>${v}</parameter>`)}\n</function>\n</seed:tool_call>`,
		),
	},
	{
		family: 'GLM <arg_key>/<arg_value>',
		write: each(
			(c) =>
				`<tool_call>${c.name}\n${xmlParameters(c, (k, v) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>`)}\n</tool_call>`,
		),
	},
	{
		family: 'DeepSeek V3 (fenced arguments)',
		write: (calls) =>
			`${DS('tool calls begin')}${calls.map((c) => `${DS('tool call begin')}function${DS('tool sep')}${c.name}\n\`\`\`json\n${args(c)}\n\`\`\`${DS('tool call end')}`).join('\n')}${DS('tool calls end')}`,
		together: true,
	},
	{
		family: 'DeepSeek V3.1',
		write: (calls) =>
			`${DS('tool calls begin')}${calls.map((c) => `${DS('tool call begin')}${c.name}${DS('tool sep')}${args(c)}${DS('tool call end')}`).join('')}${DS('tool calls end')}`,
		together: true,
	},
	{
		family: 'Kimi K2 sections',
		write: (calls) =>
			`<|tool_calls_section_begin|>${calls.map((c, i) => `<|tool_call_begin|>functions.${c.name}:${i} <|tool_call_argument_begin|>${args(c)}<|tool_call_end|>`).join('')}<|tool_calls_section_end|>`,
		together: true,
	},
	{
		family: 'harmony (gpt-oss)',
		write: (calls) =>
			calls
				.map(
					(c) =>
						`<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${args(c)}<|call|>`,
				)
				.join(''),
		together: true,
	},
	{
		family: 'OpenAI message tool_calls',
		write: (calls) =>
			json({
				role: 'assistant',
				content: null,
				tool_calls: calls.map((c, i) => ({
					id: `call_${i}`,
					type: 'function',
					function: { name: c.name, arguments: args(c) },
				})),
			}),
		together: true,
	},
	{
		family: 'OpenAI function_call',
		write: each((c) => json({ function_call: { name: c.name, arguments: args(c) } })),
	},
	{
		family: 'Anthropic tool_use',
		write: (calls) =>
			json(
				calls.map((c, i) => ({
					type: 'tool_use',
					id: `toolu_0${i}`,
					name: c.name,
					input: c.arguments,
				})),
			),
		together: true,
	},
	{
		family: 'Gemini functionCall',
		write: each((c) => json({ functionCall: { name: c.name, args: c.arguments } })),
	},
	{
		family: 'LangChain JSON agent (fenced)',
		write: each(
			(c) => `\`\`\`json\n${json({ action: c.name, action_input: c.arguments })}\n\`\`\``,
		),
	},
	{
		family: 'LangChain structured chat (Action: + fence)',
		write: each(
			(c) => `Action:\n\`\`\`\n${json({ action: c.name, action_input: c.arguments })}\n\`\`\``,
		),
	},
	{ family: 'ReAct', write: each((c) => `Action: ${c.name}\nAction Input: ${args(c)}`) },
	{
		family: 'LangChain XML agent',
		write: each((c) => `<tool>${c.name}</tool><tool_input>${args(c)}</tool_input>`),
	},
];

/** [reasoning as the family writes it, the words in it that must never be shown] */
export const REASONINGS: Array<[string, string]> = [
	[
		'<think>The user wants a sum. Not {"tool_call": {"name": "lookup", "arguments": {"input": "x"}}}.</think>\n\n',
		'The user wants',
	],
	['<seed:think>Adding is what the tool does.</seed:think>', 'Adding is what'],
	['<|channel|>analysis<|message|>We need the add tool.<|end|>', 'We need the add'],
	['<thinking>Let me think about the tools.</thinking>\n', 'Let me think'],
];
