/**
 * More ordinary answers (reader2's): the call formats themselves explained, as people ask about
 * them (a Hermes parser tutorial, Mistral's and DeepSeek's tokens, LangChain's ReAct and XML
 * agents, harmony, Kimi, GLM, Qwen3-Coder), with markers in fences, inline code and sentences.
 */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const FORMATS_EXPLAINED: OrdinaryAnswer[] = [
	answer(
		'a Hermes parser tutorial, fenced and inline examples',
		'math',
		written`To parse Hermes-style calls, look for ˋ<tool_call>ˋ and ˋ</tool_call>ˋ and parse what is between them as JSON.

ˋˋˋpython
import json, re

CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)

def parse(text):
    return [json.loads(m.group(1)) for m in CALL.finditer(text)]

assert parse('<tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>') == [
    {"name": "add", "arguments": {"a": 2, "b": 3}}
]
ˋˋˋ

Keep the text before the first ˋ<tool_call>ˋ as the content; Qwen2.5 writes several tags in a row.`,
	),
	answer(
		'a Hermes example in an xml fence',
		'weather',
		written`Qwen answers like this when it wants a tool:

ˋˋˋxml
<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris"}}
</tool_call>
ˋˋˋ

Your server strips the tags and returns the JSON as a ˋtool_callsˋ entry.`,
	),
	answer(
		'the tool_call tag mid-sentence with a bound name',
		'math',
		written`The model wraps the JSON in a <tool_call> tag only when the template tells it to; without the template it just answers.`,
	),
	answer(
		'a streaming parser for tool_call tags in TypeScript',
		'math',
		written`Buffer until the closing tag arrives:

ˋˋˋts
const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

export function* calls(chunks: Iterable<string>) {
  let buffer = '';
  for (const chunk of chunks) {
    buffer += chunk;
    let start = buffer.indexOf(OPEN);
    while (start >= 0 && buffer.includes(CLOSE, start)) {
      const end = buffer.indexOf(CLOSE, start);
      yield JSON.parse(buffer.slice(start + OPEN.length, end));
      buffer = buffer.slice(end + CLOSE.length);
      start = buffer.indexOf(OPEN);
    }
  }
}
ˋˋˋ

For ˋ<tool_call>{"name": "lookup", "arguments": {"input": "otter"}}</tool_call>ˋ it yields one object.`,
	),
	answer(
		'Mistral TOOL_CALLS explained with inline code',
		'weather',
		written`Mistral's models write ˋ[TOOL_CALLS]ˋ followed by a JSON array, for example ˋ[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]ˋ. Since v11 the tokenizer writes ˋ[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}ˋ instead, one token run per call.`,
	),
	answer(
		'Mistral v11 format in a text fence',
		'mail',
		written`The v11 template renders a call as:

ˋˋˋtext
[TOOL_CALLS]send_email[ARGS]{"to": "a@example.com", "subject": "Hi", "body": "Hello"}
ˋˋˋ

and the tool's result comes back between ˋ[TOOL_RESULTS]ˋ and ˋ[/TOOL_RESULTS]ˋ.`,
	),
	answer(
		'Mistral tokens named in a sentence',
		'weather',
		written`In the raw output you will see the [TOOL_CALLS] token only if you decode with special tokens kept; vLLM's mistral parser removes it for you.`,
	),
	answer(
		'DeepSeek token documentation, fenced',
		'weather',
		written`DeepSeek-V3 writes calls between special tokens with full-width bars:

ˋˋˋ
<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
ˋˋˋjson
{"city": "Paris"}
ˋˋˋ<｜tool▁call▁end｜><｜tool▁calls▁end｜>
ˋˋˋ

Note the nested fence around the arguments: that is by design.`,
	),
	answer(
		'DeepSeek tokens in a table',
		'math',
		written`| token | meaning |
|---|---|
| ˋ<｜tool▁calls▁begin｜>ˋ | start of all calls |
| ˋ<｜tool▁call▁begin｜>ˋ | start of one call |
| ˋ<｜tool▁sep｜>ˋ | between type and name |
| ˋ<｜tool▁call▁end｜>ˋ | end of one call |`,
	),
	answer(
		'LangChain ReAct output in a fence and as a numbered explanation',
		'math',
		written`A ReAct step looks like this:

ˋˋˋ
Thought: I need the definition first.
Action: lookup
Action Input: otter
ˋˋˋ

How the executor reads it:

1. Thought: free text, ignored by the parser.
2. Action: the tool's name, here lookup.
3. Action Input: the text passed to the tool.
4. Observation: what the tool returned, appended by the executor.

When the model writes "Final Answer:" the loop stops.`,
	),
	answer(
		'ReAct lines as indented plain lines in an explanation',
		'weather',
		written`The parser expects exactly two lines per step, e.g.

    Action: get_weather
    Action Input: Paris

If the model writes "Action Input" before "Action", LangChain raises an OutputParserException.`,
	),
	answer(
		'Action mid-sentence in a review',
		'mail',
		written`The review found three problems. Action: none needed from you; the team will send_email to the customer once the fix ships.`,
	),
	answer(
		'a ReAct final answer explained inline',
		'math',
		written`In ReAct the model finishes by writing ˋFinal Answer: <text>ˋ on its own line; anything after it is the answer. So ˋThought: I know it\nFinal Answer: 5ˋ ends the run with "5".`,
	),
	answer(
		'the XML agent format in an xml fence',
		'math',
		written`LangChain's XML agent prompt asks for:

ˋˋˋxml
<tool>lookup</tool><tool_input>otter</tool_input>
<observation>a semi-aquatic mammal</observation>
<final_answer>An otter is a semi-aquatic mammal.</final_answer>
ˋˋˋ

The stop sequence is ˋ</tool_input>ˋ, so the model never writes the observation itself.`,
	),
	answer(
		'final_answer tag named mid-sentence',
		'weather',
		written`The agent stopped because it wrote a <final_answer> tag too early, before it had the weather; tighten the prompt so it calls the tool first.`,
	),
	answer(
		'final_answer in inline code at the start',
		'math',
		written`ˋ<final_answer>ˋ is the tag the XML agent uses to finish, and ˋ</final_answer>ˋ closes it; the text between them is returned.`,
	),
	answer(
		'harmony format explained in a fence',
		'weather',
		written`gpt-oss writes calls on the commentary channel:

ˋˋˋ
<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>
ˋˋˋ

The final answer goes to the ˋfinalˋ channel.`,
	),
	answer(
		'Kimi section tokens in inline code',
		'math',
		written`Kimi K2 wraps calls in ˋ<|tool_calls_section_begin|>ˋ … ˋ<|tool_calls_section_end|>ˋ and names each one ˋfunctions.add:0ˋ, an index after the colon.`,
	),
	answer(
		'GLM arg_key format in a fence',
		'math',
		written`GLM-4.5 writes arguments as key and value tags:

ˋˋˋxml
<tool_call>add
<arg_key>a</arg_key>
<arg_value>2</arg_value>
</tool_call>
ˋˋˋ`,
	),
	answer(
		'Qwen3-Coder function tags in a fence',
		'mail',
		written`Qwen3-Coder's calls are XML:

ˋˋˋxml
<tool_call>
<function=create_ticket>
<parameter=title>
VPN drops
</parameter>
</function>
</tool_call>
ˋˋˋ

Parameter values are text; the parser types them from the schema.`,
	),
	answer(
		'Claude invoke XML in a fence',
		'weather',
		written`Older Claude prompts used:

ˋˋˋxml
<function_calls>
<invoke name="get_weather">
<parameter name="city">Paris</parameter>
</invoke>
</function_calls>
ˋˋˋ

Newer Claude models use the tools API instead.`,
	),
	answer(
		'Phi-4 functools explained',
		'math',
		written`Phi-4-mini writes its calls after the word functools, as a JSON list: ˋfunctools[{"name": "add", "arguments": {"a": 2, "b": 3}}]ˋ. The name has nothing to do with Python's functools module.`,
	),
	answer(
		'functools at a line start in prose',
		'math',
		written`functools is the standard library module for higher-order functions.
functools.partial fixes some arguments; functools.reduce folds a list.`,
	),
	answer(
		'functools.reduce in an unfenced one-liner',
		'math',
		written`functools.reduce(lambda a, b: a + b, [1, 2, 3]) gives 6.`,
	),
	answer(
		'python_tag in inline code',
		'weather',
		written`Llama 3.1 starts a built-in tool call with ˋ<|python_tag|>ˋ and ends it with ˋ<|eom_id|>ˋ, so the runtime knows to run it and come back.`,
	),
	answer(
		'TOOLCALL tag named in a sentence',
		'mail',
		written`Nemotron puts its calls in a <TOOLCALL> block; the vLLM parser for it is called llama_nemotron_json.`,
	),
	answer(
		'a parser regex table for every family',
		'math',
		written`| family | regex |
|---|---|
| Hermes | ˋ<tool_call>(.*?)</tool_call>ˋ |
| Mistral | ˋ\[TOOL_CALLS\](.*)ˋ |
| Granite | ˋ<\|tool_call\|>(.*)ˋ |
| Phi-4 | ˋfunctools\[(.*)\]ˋ |
| XML agent | ˋ<tool>(.*?)</tool>ˋ |`,
	),
	answer(
		'tool_call tags in an HTML escaped example',
		'math',
		written`In the docs page the example is escaped: &lt;tool_call&gt;{"name": "add"}&lt;/tool_call&gt; shows up as the literal tag in the browser.`,
	),
	answer(
		'a model card snippet with function_call tag in a fence',
		'weather',
		written`From the model card:

ˋˋˋ
<function_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</function_call>
ˋˋˋ

Use ˋ--tool-call-parser internlmˋ or write a small parser.`,
	),
	answer(
		'the tool_code fence explained inline',
		'math',
		written`Gemma writes calls inside a ˋˋˋtool_code fence, e.g. ˋprint(add(a=2, b=3))ˋ, and expects the output back in a ˋˋˋtool_output fence.`,
	),
	answer(
		"Claude's old call tags quoted in the middle of a sentence, naming a bound tool",
		'math',
		written`In Claude's older format you would write <invoke name="add"><parameter name="a">2</parameter><parameter name="b">3</parameter></invoke> inside a function_calls block, and the client parses it.`,
	),
	answer(
		'a Hermes tag quoted mid-sentence with a bound tool, the sentence going on',
		'weather',
		written`The model then emits <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call> and waits for your server to run it.`,
	),
];
