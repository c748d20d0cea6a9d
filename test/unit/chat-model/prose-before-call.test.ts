/**
 * The prose before a call is a slice of the answer (issue 68): the text up to where the call's
 * family says its whole block begins (its tag, its section's token, the fence around JSON),
 * trimmed; a word that looks like a tag or token but opens no block stays in the prose. The
 * replies are the public tests' own where one exists (each cites it), the prose written out by
 * hand; read whole, and streamed (streamProperty.ts: the chat shows that prose by the end).
 */
import { readToolsAnswer } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { call, tool, type Fixture } from './fixtures/fixture';
import { streamProblems } from './streamProperty';

const WEATHER = [tool('get_weather', { city: 'string' })];
const ASKED_PARIS = '{"tool_call": {"name": "get_weather", "arguments": {"city": "Paris"}}}';

const CASES: Fixture[] = [
	{
		source:
			'vllm-project/vllm tests/tool_parsers/test_hermes_tool_parser.py test_hermes_streaming_content_then_tool_call_with_stream_interval',
		reply:
			'Sure, let me check the weather.<tool_call>{"name": "get_weather", "arguments": {"city": "NYC"}}</tool_call>',
		tools: WEATHER,
		calls: [call('get_weather', { city: 'NYC' })],
		prose: 'Sure, let me check the weather.',
	},
	{
		source:
			'vllm-project/vllm tests/tool_parsers/test_kimi_k2_tool_parser.py test_extract_tool_calls[tool_call_with_content_before]',
		reply:
			'I\'ll help you check the weather. <|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.get_weather:0 <|tool_call_argument_begin|> {"city": "Beijing"} <|tool_call_end|> <|tool_calls_section_end|>',
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Beijing' })],
		prose: "I'll help you check the weather.",
	},
	{
		source:
			'langchain-ai/langchain libs/langchain/tests/unit_tests/agents/output_parsers/test_react_json_single_input.py test_action',
		reply:
			'Thought: agent thought here\n```\n{\n    "action": "search",\n    "action_input": "what is the temperature in SF?"\n}\n```\n',
		tools: [tool('search', { input: 'string' }, ['input'])],
		calls: [call('search', { input: 'what is the temperature in SF?' })],
		prose: 'Thought: agent thought here',
	},
	{
		source:
			"written by hand in Step-3's format (vllm-project/vllm tests/tool_parsers/test_step3_tool_parser.py): its section and call tokens open the block",
		reply:
			'Checking Lima.\n<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Lima</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Lima' })],
		prose: 'Checking Lima.',
	},
	{
		source: 'written by hand: the asked JSON in a json fence after a lead-in',
		reply: `Let me check.\n\`\`\`json\n${ASKED_PARIS}\n\`\`\``,
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Paris' })],
		prose: 'Let me check.',
	},
	{
		source:
			"written by hand: a tool named in a tag-like word at the prose's end, no block of any family",
		reply: `I'll ask the <weather_tool>\n${ASKED_PARIS}`,
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Paris' })],
		prose: "I'll ask the <weather_tool>",
	},
	{
		source: "written by hand: a special-token-like word before Kimi's section, not Kimi's",
		reply:
			'Checking <|weather|>\n<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|>',
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Oslo' })],
		prose: 'Checking <|weather|>',
	},
	{
		source: "written by hand: Hermes's tag named inside the prose, then its block",
		reply:
			'Qwen wraps each call in <tool_call> tags, so here is mine.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
		tools: WEATHER,
		calls: [call('get_weather', { city: 'Rome' })],
		prose: 'Qwen wraps each call in <tool_call> tags, so here is mine.',
	},
];

describe('the prose before a call is a slice of the answer', () => {
	it.each(CASES.map((c) => [c.source, c] as const))('%s', (_, { reply, tools, calls, prose }) => {
		expect(readToolsAnswer(reply, tools)).toEqual({ kind: 'calls', prose, calls });
	});

	it('streamed a character at a time and in random chunks, the chat shows that prose', () => {
		const cases = CASES.map((c) => ({ name: c.source, reply: c.reply, tools: c.tools }));
		expect(streamProblems(cases)).toEqual([]);
	});
});
