/**
 * The scripted model's answers written the way another model family or agent framework writes
 * them (docs/chat-model.md, "Tool calls read", names each family's public source), so that a
 * person can watch the chat model read any family end to end: the emulator's `modelFamily`
 * option (`--model-family hermes`), or `[family: hermes]` in a question. A `+think` suffix
 * (`hermes+think`) puts reasoning before every answer, as reasoning models write it;
 * `+closing-think` writes it as DeepSeek-R1 and QwQ do, whose prompt opens it: only `</think>`.
 */
import { toolCallText } from '../../nodes/AgentPlatform/helpers/output/protocolWords';

export interface WrittenCall {
	name: string;
	arguments: Record<string, unknown>;
}

const json = (value: unknown) => JSON.stringify(value);
const args = (call: WrittenCall) => json(call.arguments);
const named = (call: WrittenCall) => ({ name: call.name, arguments: call.arguments });
const lines = (write: (call: WrittenCall) => string) => (calls: WrittenCall[]) =>
	calls.map(write).join('\n');
const python = (call: WrittenCall) =>
	`${call.name}(${Object.entries(call.arguments)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? `'${value}'` : json(value)}`)
		.join(', ')})`;
const text = (value: unknown) => (typeof value === 'string' ? value : json(value));
const invoke = (call: WrittenCall) =>
	`<invoke name="${call.name}">\n${Object.entries(call.arguments)
		.map(([key, value]) => `<parameter name="${key}">${text(value)}</parameter>`)
		.join('\n')}\n</invoke>`;
const qwenCoder = (call: WrittenCall) =>
	`<function=${call.name}>\n${Object.entries(call.arguments)
		.map(([key, value]) => `<parameter=${key}>\n${text(value)}\n</parameter>`)
		.join('\n')}\n</function>`;
const ds = (words: string) => `<｜${words.split(' ').join('▁')}｜>`;

/** Each family's calls, as its models write them. */
const CALLS: Record<string, (calls: WrittenCall[]) => string> = {
	asked: lines((c) => toolCallText(c.name, c.arguments)),
	openai: lines((c) => json({ name: c.name, arguments: args(c) })),
	hermes: lines((c) => `<tool_call>\n${json(named(c))}\n</tool_call>`),
	llama3: (calls) => calls.map((c) => json({ name: c.name, parameters: c.arguments })).join('; '),
	'python-tag': (calls) =>
		`<|python_tag|>${calls.map((c) => json({ name: c.name, parameters: c.arguments })).join('; ')}`,
	mistral: (calls) => `[TOOL_CALLS]${json(calls.map(named))}`,
	'mistral-v11': (calls) => calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${args(c)}`).join(''),
	nemotron: (calls) => `<TOOLCALL>${json(calls.map(named))}</TOOLCALL>`,
	phi4: (calls) => `functools${json(calls.map(named))}`,
	pythonic: (calls) => `[${calls.map(python).join(', ')}]`,
	llama4: (calls) => `<|python_start|>[${calls.map(python).join(', ')}]<|python_end|>`,
	'claude-xml': (calls) => `<function_calls>\n${calls.map(invoke).join('\n')}\n</function_calls>`,
	minimax: (calls) => `<minimax:tool_call>\n${calls.map(invoke).join('\n')}\n</minimax:tool_call>`,
	'qwen3-coder': lines((c) => `<tool_call>\n${qwenCoder(c)}\n</tool_call>`),
	'seed-oss': lines((c) => `<seed:tool_call>\n${qwenCoder(c)}\n</seed:tool_call>`),
	glm: lines(
		(c) =>
			`<tool_call>${c.name}\n${Object.entries(c.arguments)
				.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${text(v)}</arg_value>`)
				.join('\n')}\n</tool_call>`,
	),
	deepseek: (calls) =>
		`${ds('tool calls begin')}${calls
			.map(
				(c) =>
					`${ds('tool call begin')}function${ds('tool sep')}${c.name}\n\`\`\`json\n${args(c)}\n\`\`\`${ds('tool call end')}`,
			)
			.join('\n')}${ds('tool calls end')}`,
	kimi: (calls) =>
		`<|tool_calls_section_begin|>${calls
			.map(
				(c, i) =>
					`<|tool_call_begin|>functions.${c.name}:${i} <|tool_call_argument_begin|>${args(c)}<|tool_call_end|>`,
			)
			.join('')}<|tool_calls_section_end|>`,
	harmony: (calls) =>
		calls
			.map(
				(c) =>
					`<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${args(c)}<|call|>`,
			)
			.join(''),
	'openai-message': (calls) =>
		json({
			role: 'assistant',
			content: null,
			tool_calls: calls.map((c, i) => ({
				id: `call_${i}`,
				type: 'function',
				function: { name: c.name, arguments: args(c) },
			})),
		}),
	anthropic: (calls) =>
		json(
			calls.map((c, i) => ({
				type: 'tool_use',
				id: `toolu_${i}`,
				name: c.name,
				input: c.arguments,
			})),
		),
	gemini: lines((c) => json({ functionCall: { name: c.name, args: c.arguments } })),
	'langchain-json': lines(
		(c) => `\`\`\`json\n${json({ action: c.name, action_input: c.arguments })}\n\`\`\``,
	),
	react: lines((c) => `Action: ${c.name}\nAction Input: ${args(c)}`),
	'xml-agent': lines((c) => `<tool>${c.name}</tool><tool_input>${args(c)}</tool_input>`),
};

/** The final answer, where the family wraps it. */
const FINALS: Record<string, (answer: string) => string> = {
	harmony: (answer) => `<|start|>assistant<|channel|>final<|message|>${answer}<|return|>`,
	'langchain-json': (answer) =>
		`\`\`\`json\n${json({ action: 'Final Answer', action_input: answer })}\n\`\`\``,
	'xml-agent': (answer) => `<final_answer>${answer}</final_answer>`,
};

/**
 * Reasoning as the family writes it, before the answer; it quotes a call of the tool, which must
 * not run (a reader that read it would call the tool without its arguments).
 */
function reasoning(family: string, tool: string, closingOnly: boolean): string {
	const quoted = json({ name: tool, arguments: {} });
	const thought = `The user asked something; a call would look like ${quoted}. I decide now.`;
	if (closingOnly) return `${thought}\n</think>\n\n`;
	if (family === 'harmony') return `<|channel|>analysis<|message|>${thought}<|end|>`;
	if (family === 'seed-oss') return `<seed:think>${thought}</seed:think>`;
	return `<think>${thought}</think>\n\n`;
}

export const MODEL_FAMILIES = Object.keys(CALLS);

function parts(family: string | undefined): { base: string; think: boolean; closing: boolean } {
	const [base, extra] = (family ?? 'asked').split('+');
	const closing = extra === 'closing-think';
	return { base: CALLS[base] ? base : 'asked', think: closing || extra === 'think', closing };
}

/** The calls as the family writes them. */
export function familyCalls(family: string | undefined, calls: WrittenCall[]): string {
	const { base, think, closing } = parts(family);
	const thought = think ? reasoning(base, calls[0]?.name ?? 'tool', closing) : '';
	return `${thought}${CALLS[base](calls)}`;
}

/** A final answer as the family writes it; `tool`: the tool its reasoning quotes a call of. */
export function familyAnswer(family: string | undefined, answer: string, tool = 'tool'): string {
	const { base, think, closing } = parts(family);
	return `${think ? reasoning(base, tool, closing) : ''}${FINALS[base]?.(answer) ?? answer}`;
}
