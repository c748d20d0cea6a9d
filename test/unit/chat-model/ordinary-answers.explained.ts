/**
 * Ordinary answers about n8n expressions and about other APIs' tool calls: the call fields and
 * markers are the subject of the answer, shown in code or named in prose, never a call.
 */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const N8N_EXPRESSIONS: OrdinaryAnswer[] = [
	answer(
		'n8n: a JSON body with expressions, bare',
		'math',
		written`{"name": {{ $json.name }}, "age": {{ $json.age }}}`,
	),
	answer(
		'n8n: a JSON body with expressions, explained',
		'mail',
		written`In the HTTP Request node set "Body Content Type" to JSON and paste:

ˋˋˋjson
{
  "to": "{{ $json.email }}",
  "subject": "Order {{ $json.orderId }} shipped",
  "body": "Hi {{ $json.name }}, your order is on its way."
}
ˋˋˋ

Strings need the quotes around the expression; numbers don't.`,
	),
	answer(
		'n8n: expression with a ternary',
		'weather',
		written`Use ˋ{{ $json.temperature > 25 ? 'hot' : 'mild' }}ˋ in the Set node's value field.`,
	),
	answer(
		'n8n: $node reference and items',
		'math',
		written`To read the output of an earlier node, write ˋ{{ $('add').item.json.sum }}ˋ; ˋ$('add')ˋ is the node named "add", and ˋ.itemˋ is the item paired with the current one.`,
	),
	answer(
		'n8n: expression that builds a call body',
		'weather',
		written`{{ JSON.stringify({ name: 'get_weather', arguments: { city: $json.city } }) }}`,
	),
	answer(
		'n8n: Code node returning items',
		'mail',
		written`ˋˋˋjavascript
return $input.all().map((item) => ({
  json: {
    name: item.json.name,
    to: item.json.email,
    subject: ˋWelcome, $\{item.json.name}!ˋ,
  },
}));
ˋˋˋ

Then connect a Send Email node and map ˋ{{ $json.to }}ˋ and ˋ{{ $json.subject }}ˋ.`,
	),
	answer(
		'n8n: an AI Agent system message with tool names',
		'weather',
		written`A system message that works well:

> You are a travel assistant. Use get_weather when the user asks about the weather in a place, and search_docs for questions about our booking policies. Answer in two sentences at most.

Keep tool names exactly as they appear in the tools' names.`,
	),
	answer(
		'n8n: $fromAI in a tool parameter',
		'mail',
		written`In the tool's "To" field write ˋ{{ $fromAI('to', 'the address to write to', 'string') }}ˋ and in "Subject" ˋ{{ $fromAI('subject') }}ˋ: the agent fills them when it calls send_email.`,
	),
	answer(
		'n8n: DateTime expression',
		'math',
		written`ˋ{{ $now.minus({ days: 7 }).toFormat('yyyy-MM-dd') }}ˋ gives the date a week ago; ˋ{{ DateTime.fromISO($json.date).weekday }}ˋ its weekday.`,
	),
	answer(
		'n8n: a JMESPath expression',
		'weather',
		written`ˋ{{ $jmespath($json.cities, "[?temperature > ˋ20ˋ].name") }}ˋ returns the names of the warm cities.`,
	),
	answer(
		'n8n: webhook response body',
		'math',
		written`Set "Respond With" to JSON and use:

{
  "name": "{{ $json.name }}",
  "result": {{ $json.a + $json.b }},
  "arguments": {{ JSON.stringify($json.args) }}
}`,
	),
];

export const OTHER_APIS: OrdinaryAnswer[] = [
	answer(
		"OpenAI's tool_calls field explained in prose",
		'weather',
		written`The "tool_calls" field is how the OpenAI API tells you the model wants a function run. Each entry has an "id", a "type" of "function", and a "function" object with a "name" and "arguments"; note that "arguments" is a JSON string, so you must parse it before use. After running the function, send a message with role "tool" and the same "tool_call_id".`,
	),
	answer(
		"OpenAI's response with tool_calls, an example in a fence",
		'weather',
		written`A response that asks for a function looks like this:

ˋˋˋjson
{
  "id": "chatcmpl-123",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": null,
        "tool_calls": [
          {
            "id": "call_abc",
            "type": "function",
            "function": { "name": "get_weather", "arguments": "{\"city\": \"Boston\"}" }
          }
        ]
      },
      "finish_reason": "tool_calls"
    }
  ]
}
ˋˋˋ

Your code reads ˋchoices[0].message.tool_callsˋ, runs each function and answers with one ˋtoolˋ message per call.`,
	),
	answer(
		"Anthropic's tool_use block explained",
		'mail',
		written`Claude's Messages API returns a content block of type ˋtool_useˋ when it wants a tool:

ˋˋˋjson
{"type": "tool_use", "id": "toolu_01A", "name": "send_email", "input": {"to": "a@example.com", "subject": "Hi", "body": "Hello"}}
ˋˋˋ

You reply with a ˋuserˋ message holding a ˋtool_resultˋ block whose ˋtool_use_idˋ is ˋtoolu_01Aˋ. Unlike OpenAI, ˋinputˋ is already an object, not a string.`,
	),
	answer(
		"Gemini's functionCall explained",
		'weather',
		written`Gemini puts calls in the candidate's parts: a part like ˋ{"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}ˋ. You run it and send back a part ˋ{"functionResponse": {"name": "get_weather", "response": {"temperature": 22}}}ˋ in the next turn. The field names differ from OpenAI's (ˋargsˋ, not ˋargumentsˋ), but the round trip is the same.`,
	),
	answer(
		'the Hermes format explained with an example',
		'weather',
		written`Hermes-style models (NousResearch Hermes, Qwen 2.5) wrap each call in tags. An example of what such a model writes:

ˋˋˋxml
<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris"}}
</tool_call>
ˋˋˋ

vLLM's ˋhermesˋ parser extracts the JSON between ˋ<tool_call>ˋ and ˋ</tool_call>ˋ and returns it as a regular ˋtool_callsˋ entry, so your client never sees the tags.`,
	),
	answer(
		'the Hermes tags named in prose only',
		'math',
		written`If you see raw <tool_call> tags in your output, the server was started without --tool-call-parser hermes, so the tags reach you as text instead of being turned into tool calls.`,
	),
	answer(
		'ReAct explained in prose',
		'math',
		written`ReAct interleaves reasoning and acting. The model writes a thought, then names an action and its input on separate lines, then reads the observation the framework appends, and repeats until it can give the final answer. In LangChain's prompt the lines are labelled Thought, Action, Action Input and Observation, and the loop ends with a line labelled Final Answer.`,
	),
	answer(
		'ReAct example in a fence',
		'math',
		written`A ReAct trace looks like this:

ˋˋˋtext
Question: What is 2 plus 3?
Thought: I should use the calculator.
Action: add
Action Input: {"a": 2, "b": 3}
Observation: 5
Thought: I now know the final answer.
Final Answer: 5
ˋˋˋ

The agent executor stops the model at "Observation:" and fills that line in itself.`,
	),
	answer(
		'LangChain JSON agent format explained',
		'weather',
		written`The structured chat agent asks for a JSON blob with ˋactionˋ and ˋaction_inputˋ keys, for instance ˋ{"action": "get_weather", "action_input": {"city": "Rome"}}ˋ, and ˋ{"action": "Final Answer", "action_input": "..."}ˋ to finish. The output parser pulls the first such blob out of the model's text.`,
	),
	answer(
		'Mistral and Llama formats compared',
		'math',
		written`| Family | How a call is written |
|---|---|
| Mistral | ˋ[TOOL_CALLS]ˋ followed by a JSON list of calls |
| Llama 3.1 | ˋ<|python_tag|>ˋ then a JSON object with ˋnameˋ and ˋparametersˋ |
| Llama 4 | a Python-style list such as ˋ[add(a=2, b=3)]ˋ |
| Qwen / Hermes | JSON inside ˋ<tool_call>ˋ tags |

Serving stacks such as vLLM pick one parser per deployment.`,
	),
	answer(
		'how to define a function tool in OpenAI, TypeScript',
		'mail',
		written`ˋˋˋts
const tools = [
  {
    type: 'function',
    function: {
      name: 'create_ticket',
      description: 'Open a helpdesk ticket',
      parameters: {
        type: 'object',
        properties: { title: { type: 'string' }, priority: { type: 'string', enum: ['low', 'high'] } },
        required: ['title'],
      },
    },
  },
];
const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
const call = completion.choices[0].message.tool_calls?.[0];
if (call) console.log(call.function.name, JSON.parse(call.function.arguments));
ˋˋˋ`,
	),
	answer(
		"OpenAI's Responses API function_call item, in prose with inline code",
		'weather',
		written`In the Responses API a call is an output item, ˋ{"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}ˋ, and you answer with an input item of type ˋfunction_call_outputˋ carrying the same ˋcall_idˋ.`,
	),
	answer(
		'MCP tools/call request explained',
		'weather',
		written`An MCP client calls a tool with a JSON-RPC request:

ˋˋˋjson
{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search_docs", "arguments": {"query": "SSO setup"}}}
ˋˋˋ

The server answers with ˋresult.contentˋ, a list of text or image blocks.`,
	),
	answer(
		'why the model printed a call instead of calling',
		'mail',
		written`That happens when the model was not given the tools through the API: it then imitates what it saw in training and prints something like ˋsend_email(to="...", subject="...")ˋ as plain text. Pass the tool definitions in the request's ˋtoolsˋ field and the call comes back structured.`,
	),
	answer(
		'DeepSeek special tokens explained',
		'math',
		written`DeepSeek V3 writes calls between special tokens: ˋ<｜tool▁calls▁begin｜>ˋ opens the section, each call sits between ˋ<｜tool▁call▁begin｜>ˋ and ˋ<｜tool▁call▁end｜>ˋ, and the arguments come as a fenced JSON block. You never see them with the official API, which returns ˋtool_callsˋ instead.`,
	),
];
