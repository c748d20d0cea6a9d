/**
 * Writers of the formats that are JSON, Python or a label without special tokens: the asked JSON,
 * OpenAI's shapes, Llama 3's, xLAM's, Anthropic's and Gemini's, LangChain's agents, pythonic
 * call lists and Gemini's tool code, ReAct.
 */
import { argumentsJson, each, json, named, pythonCall, type CallWriter } from './writing';

export const JSON_WRITERS: Record<string, Record<string, CallWriter>> = {
	// the tools protocol's own shape (docs/chat-model.md), written here, not by the node's writer
	asked: { asked: each((c) => json({ tool_call: named(c) })) },
	json: {
		openai: each((c) => json({ name: c.name, arguments: argumentsJson(c) })),
		llama3: each((c) => json({ name: c.name, parameters: c.arguments }), '; '),
		xlam: (calls) => json(calls.map(named)),
		'openai-message': (calls) =>
			json({
				role: 'assistant',
				content: null,
				tool_calls: calls.map((c, i) => ({
					id: `call_${i}`,
					type: 'function',
					function: { name: c.name, arguments: argumentsJson(c) },
				})),
			}),
		'openai-function-call': each((c) =>
			json({ function_call: { name: c.name, arguments: argumentsJson(c) } }),
		),
		anthropic: (calls) =>
			json(
				calls.map((c, i) => ({
					type: 'tool_use',
					id: `toolu_${i}`,
					name: c.name,
					input: c.arguments,
				})),
			),
		gemini: each((c) => json({ functionCall: { name: c.name, args: c.arguments } })),
		'langchain-json': each(
			(c) => `\`\`\`json\n${json({ action: c.name, action_input: c.arguments })}\n\`\`\``,
		),
	},
	pythonic: {
		pythonic: (calls) => `[${calls.map(pythonCall).join(', ')}]`,
		'tool-code': each((c) => `\`\`\`tool_code\nprint(default_api.${pythonCall(c)})\n\`\`\``),
	},
	react: {
		react: each((c) => `Action: ${c.name}\nAction Input: ${argumentsJson(c)}`),
		'structured-chat': each(
			(c) => `Action:\n\`\`\`\n${json({ action: c.name, action_input: c.arguments })}\n\`\`\``,
		),
	},
	'xml-agent': {
		'xml-agent': each((c) => `<tool>${c.name}</tool><tool_input>${argumentsJson(c)}</tool_input>`),
	},
};
