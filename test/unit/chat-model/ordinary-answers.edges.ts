/**
 * Ordinary answers at the edges of the call formats: a list comprehension that starts like a
 * pythonic call, tool definitions, "Action:" and "Final answer:" lines of notes and quizzes,
 * markdown links and placeholders at the start, an echoed message with no calls.
 */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const EDGES: OrdinaryAnswer[] = [
	answer(
		'a list comprehension over the tool, bare',
		'weather',
		written`[get_weather(city) for city in cities] gives you one result per city, in the same order.`,
	),
	answer(
		'print of the tool in a sentence',
		'weather',
		written`Call it like print(get_weather(city="Paris")) and you'll see the dict it returns.`,
	),
	answer(
		'functools in prose and code',
		'math',
		written`Cache it with functools:

ˋˋˋpython
from functools import lru_cache

@lru_cache(maxsize=1024)
def lookup(input):
    return glossary.get(input)
ˋˋˋ

ˋfunctools.lru_cacheˋ keeps the last 1024 answers.`,
	),
	answer(
		'tool definitions of the bound tools, bare JSON',
		'weather',
		written`[
  {
    "name": "get_weather",
    "description": "Current weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
  },
  {
    "name": "search_docs",
    "description": "Search the handbook",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
  }
]`,
	),
	answer(
		'a YAML call example, bare',
		'weather',
		written`name: get_weather
arguments:
  city: Paris
  unit: celsius
description: the YAML form our workflow file uses for a step`,
	),
	answer(
		'meeting notes with Action lines',
		'mail',
		written`Notes from the support review:

Action: Tom will send_email to the affected customers today.
Action: Lea to create_ticket for the billing bug, priority high.
Decision: no refunds before the audit.`,
	),
	answer(
		'a quiz with a final answer line',
		'math',
		written`Let's work through it.

2 + 3 = 5, and 5 × 2 = 10.

Final answer: 10`,
	),
	answer(
		'a markdown link first',
		'weather',
		written`[The weather API docs](https://api.example.com/docs) list every field; ˋtempˋ is in Kelvin unless you pass ˋunits=metricˋ.`,
	),
	answer(
		'placeholders first',
		'mail',
		written`{first_name}, {last_name} and {email} are filled from the form; {signature} comes from the account settings.`,
	),
	answer(
		'a bracketed list of tool names, bare',
		'weather',
		written`["get_weather", "search_docs"]`,
	),
	answer(
		'an echoed assistant message with no calls, bare',
		'math',
		written`{"role": "assistant", "content": "The sum is 5.", "tool_calls": []}`,
	),
	answer(
		'an XML agent explained',
		'math',
		written`LangChain's XML agent writes ˋ<tool>lookup</tool><tool_input>otter</tool_input>ˋ to use a tool and ˋ<final_answer>...</final_answer>ˋ to finish; the executor stops the model at ˋ</tool_input>ˋ.`,
	),
	answer(
		'Python calls with keyword arguments in a fenced block with a comment',
		'mail',
		written`ˋˋˋpython
# notify the on-call engineer, then open the ticket
send_email(to="oncall@example.com", subject="Disk full", body="Server 3 is at 95%")
create_ticket(title="Disk full on server 3", priority="high")
ˋˋˋ

Both run in order; wrap them in a try block if the mail server may be down.`,
	),
	answer(
		'a JSON call example between two paragraphs',
		'weather',
		written`The model answers with a JSON object instead of text when it wants the tool:

{"name": "get_weather", "arguments": {"city": "Paris"}}

Your code parses it, runs get_weather and sends the result back as the next message.`,
	),
	answer(
		'an OpenAI message example, bare, with arguments as a string',
		'mail',
		written`Example of what the API returns: ˋ{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "send_email", "arguments": "{\"to\": \"a@b.c\", \"subject\": \"Hi\", \"body\": \"Hello\"}"}}]}ˋ
The "arguments" string must be parsed with JSON.parse before use.`,
	),
	answer(
		'a table of keyboard shortcuts with brackets',
		'math',
		written`| Action | Shortcut |
|---|---|
| Add a node | [Tab] |
| Run the workflow | [Ctrl] + [Enter] |
| Look a node up | [Ctrl] + [K] |`,
	),
	answer('a one-line Python dict answer', 'math', written`{'name': name, 'age': age}`),
	answer(
		'a JS object with the tool name and arguments, bare, built from variables',
		'math',
		written`{ name: toolName, arguments: JSON.parse(rawArguments) }`,
	),
	answer(
		'a shell heredoc with JSON',
		'mail',
		written`ˋˋˋbash
cat > ticket.json <<'EOF'
{"name": "create_ticket", "arguments": {"title": "Printer jam", "priority": "low"}}
EOF
curl -X POST -d @ticket.json https://helpdesk.example.com/api/run
ˋˋˋ`,
	),
	answer(
		'a Go struct literal named like the call',
		'weather',
		written`ˋˋˋgo
call := ToolCall{Name: "get_weather", Arguments: map[string]any{"city": "Paris"}}
result, err := registry.Run(ctx, call)
ˋˋˋ`,
	),
	answer(
		'reasoning tags explained in prose',
		'math',
		written`DeepSeek-R1 writes its reasoning between <think> and </think> before the answer; most clients hide that part, and n8n's chat shows only what follows the closing tag.`,
	),
	answer(
		'a regex that strips reasoning, in Python',
		'weather',
		written`ˋˋˋpython
import re

THINK = re.compile(r"<think>.*?</think>\s*", re.DOTALL)

def answer_only(text: str) -> str:
    return THINK.sub("", text)

assert answer_only("<think>hm</think>\nIt is sunny.") == "It is sunny."
ˋˋˋ`,
	),
	answer(
		'a request body with a stop sequence at a closing tag',
		'weather',
		written`{"model": "qwq-32b", "stop": ["</think>", "<tool_call>"], "max_tokens": 512}`,
	),
];
