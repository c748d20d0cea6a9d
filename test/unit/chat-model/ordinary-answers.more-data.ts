/**
 * More ordinary answers (reader2's): data and code people ask for, shaped like calls or named
 * like the tools: tool definitions, schemas, test data with name and arguments keys, tests that
 * call the tools' namesakes, tables, shell sessions, diffs, notebooks, LaTeX, CSV, whole-answer
 * JSON blocks that name no bound tool, answers cut off mid-fence, answers opening with "Sure!".
 */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const DATA_ASKED_FOR: OrdinaryAnswer[] = [
	answer(
		'a tool definition asked for, bare JSON without arguments',
		'math',
		written`{"name": "lookup", "description": "Looks a word up in the glossary", "parameters": {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}}`,
	),
	answer(
		'a tool definition asked for, fenced JSON',
		'weather',
		written`ˋˋˋjson
{
  "name": "get_weather",
  "description": "Gets the current weather of a city",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}
}
ˋˋˋ`,
	),
	answer(
		'an OpenAPI schema, fenced YAML',
		'weather',
		written`ˋˋˋyaml
openapi: 3.0.3
info:
  title: Weather
  version: 1.0.0
paths:
  /weather:
    get:
      operationId: get_weather
      parameters:
        - name: city
          in: query
          required: true
          schema:
            type: string
ˋˋˋ`,
	),
	answer(
		'an OpenAPI operation, bare JSON',
		'mail',
		written`{"paths": {"/tickets": {"post": {"operationId": "create_ticket", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"title": {"type": "string"}}}}}}}}}}`,
	),
	answer(
		'test data with name and arguments keys after prose, json fence',
		'math',
		written`Here are five test cases for your parser:

ˋˋˋjson
[
  {"name": "add", "arguments": {"a": 1, "b": 2}},
  {"name": "add", "arguments": {"a": -1, "b": 1}},
  {"name": "lookup", "arguments": {"input": ""}},
  {"name": "lookup", "arguments": {"input": "otter"}},
  {"name": "unknown_tool", "arguments": {}}
]
ˋˋˋ

The last one should be rejected.`,
	),
	answer(
		'whole-answer json fence with name and arguments naming no bound tool',
		'math',
		written`ˋˋˋjson
{"name": "multiply", "arguments": {"a": 6, "b": 7}}
ˋˋˋ`,
	),
	answer(
		'whole-answer json fence, an array naming no bound tool',
		'weather',
		written`ˋˋˋjson
[{"name": "get_forecast", "arguments": {"city": "Paris", "days": 3}}, {"name": "get_air_quality", "arguments": {"city": "Paris"}}]
ˋˋˋ`,
	),
	answer(
		'bare JSON with name and arguments naming no bound tool, a user record',
		'mail',
		written`{"name": "Ada Lovelace", "arguments": ["analytical engine", "notes"], "born": 1815}`,
	),
	answer(
		'a Python test calling add in a fence',
		'math',
		written`ˋˋˋpython
import pytest
from calc import add

def test_add():
    assert add(2, 3) == 5

@pytest.mark.parametrize("a,b,total", [(0, 0, 0), (-1, 1, 0)])
def test_add_cases(a, b, total):
    assert add(a, b) == total
ˋˋˋ`,
	),
	answer('a one-line answer about add', 'math', written`add(2, 3) returns 5.`),
	answer(
		'a one-line lookup call result',
		'math',
		written`lookup("otter") gives "a semi-aquatic mammal".`,
	),
	answer(
		'a markdown table listing the tool names',
		'mail',
		written`| tool | what it does | required |
|---|---|---|
| send_email | sends a message | to, subject, body |
| create_ticket | opens a ticket | title |`,
	),
	answer(
		'a shell session',
		'weather',
		written`ˋˋˋconsole
$ curl -s 'https://api.example.com/weather?city=Paris' | jq .
{
  "city": "Paris",
  "temp": 14
}
$ echo $?
0
ˋˋˋ`,
	),
	answer(
		'a diff patch',
		'math',
		written`ˋˋˋdiff
--- a/tools.py
+++ b/tools.py
@@ -1,4 +1,5 @@
-def add(a, b):
-    return a + b
+def add(a: float, b: float) -> float:
+    """Adds two numbers."""
+    return a + b
ˋˋˋ`,
	),
	answer(
		'an unfenced patch',
		'mail',
		written`--- a/notify.js
+++ b/notify.js
@@ -3 +3 @@
-send_email({to, subject})
+send_email({to, subject, body})`,
	),
	answer(
		'a Jupyter-like transcript',
		'math',
		written`In [1]: from calc import add

In [2]: add(2, 3)
Out[2]: 5

In [3]: [add(i, i) for i in range(3)]
Out[3]: [0, 2, 4]`,
	),
	answer(
		'a Python REPL session',
		'weather',
		written`>>> import json
>>> json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}})
'{"name": "get_weather", "arguments": {"city": "Paris"}}'`,
	),
	answer(
		'LaTeX',
		'math',
		written`ˋˋˋlatex
\begin{equation}
  \operatorname{add}(a, b) = a + b, \qquad \text{e.g. } \operatorname{add}(2, 3) = 5
\end{equation}
ˋˋˋ`,
	),
	answer(
		'inline LaTeX',
		'math',
		written`The sum is $a + b$, so $\mathrm{add}(2,3) = 5$ and $\{a, b\} \subset \mathbb{R}$.`,
	),
	answer(
		'CSV with a name column, bare',
		'mail',
		written`name,email,priority
create_ticket,ops@example.com,high
send_email,team@example.com,low`,
	),
	answer(
		'CSV with a name column, fenced',
		'weather',
		written`ˋˋˋcsv
name,arguments
get_weather,"{""city"": ""Paris""}"
search_docs,"{""query"": ""limits""}"
ˋˋˋ`,
	),
	answer(
		'Sure! then a JSON fence of data',
		'weather',
		written`Sure! Here it is:

ˋˋˋjson
{"city": "Paris", "forecast": [{"day": "Mon", "high": 18}, {"day": "Tue", "high": 21}]}
ˋˋˋ`,
	),
	answer(
		'Sure! then a Python fence defining the tool',
		'math',
		written`Sure!

ˋˋˋpython
def lookup(input: str) -> str:
    return GLOSSARY[input]
ˋˋˋ`,
	),
	answer(
		'Sure! then a bash fence',
		'mail',
		written`Sure! Run:

ˋˋˋbash
mail -s "Disk full" ops@example.com < report.txt
ˋˋˋ`,
	),
	answer(
		'cut off mid-fence in Python',
		'weather',
		written`Here is the client:

ˋˋˋpython
def get_weather(city, unit="celsius"):
    response = requests.get(URL, params={"city": city, "unit": unit})
    response.raise_for_status()
    return response.js`,
	),
	answer(
		'cut off mid-fence in JSON after prose',
		'math',
		written`The payload:

ˋˋˋjson
{"name": "add", "arguments": {"a": 2,`,
	),
	answer(
		'cut off mid-fence, whole-answer JSON naming no tool',
		'mail',
		written`ˋˋˋjson
{"name": "Quarterly report", "arguments": ["revenue", "costs"], "owner": "fin`,
	),
];
