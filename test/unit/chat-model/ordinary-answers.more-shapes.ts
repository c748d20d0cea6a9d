/**
 * More ordinary answers (reader2's): code and documents shaped like calls in other languages and
 * notations (tests, enums, YAML and TOML lists, SQL, raw HTTP, logs, Lisp, Prolog), and fenced
 * blocks that hold one call-like line of a bound tool among code.
 */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const SHAPED_LIKE_CALLS: OrdinaryAnswer[] = [
	answer(
		'a JS test calling send_email',
		'mail',
		written`ˋˋˋjs
test('send_email rejects an empty subject', async () => {
  await expect(send_email({ to: 'a@b.c', subject: '', body: 'x' })).rejects.toThrow('subject');
});
ˋˋˋ`,
	),
	answer(
		'a Go test calling Add',
		'math',
		written`ˋˋˋgo
func TestAdd(t *testing.T) {
	if got := add(2, 3); got != 5 {
		t.Fatalf("add(2, 3) = %d, want 5", got)
	}
}
ˋˋˋ`,
	),
	answer(
		'a Rust enum of tool calls',
		'weather',
		written`ˋˋˋrust
#[derive(Deserialize)]
#[serde(tag = "name", content = "arguments")]
enum Call {
    #[serde(rename = "get_weather")]
    GetWeather { city: String },
    #[serde(rename = "search_docs")]
    SearchDocs { query: String },
}
ˋˋˋ`,
	),
	answer(
		'a YAML list of test calls',
		'math',
		written`- name: add
  arguments:
    a: 2
    b: 3
- name: lookup
  arguments:
    input: otter`,
	),
	answer(
		'a TOML config with a tools table',
		'mail',
		written`[[tools]]
name = "send_email"
enabled = true

[[tools]]
name = "create_ticket"
enabled = false`,
	),
	answer(
		'an SQL insert of tool rows',
		'weather',
		written`ˋˋˋsql
INSERT INTO tools (name, arguments) VALUES
  ('get_weather', '{"city": "Paris"}'),
  ('search_docs', '{"query": "limits"}');
ˋˋˋ`,
	),
	answer(
		'an HTTP request shown raw',
		'mail',
		written`POST /v1/tickets HTTP/1.1
Host: api.example.com
Content-Type: application/json

{"title": "VPN drops", "priority": "high"}`,
	),
	answer(
		'a GraphQL mutation',
		'mail',
		written`ˋˋˋgraphql
mutation {
  create_ticket(title: "VPN drops", priority: HIGH) {
    id
  }
}
ˋˋˋ`,
	),
	answer(
		'a log excerpt with tool names',
		'weather',
		written`2026-11-28T10:02:11Z INFO tool=get_weather args={"city":"Paris"} ms=132
2026-11-28T10:02:12Z WARN tool=search_docs args={"query":""} empty query`,
	),
	answer(
		'a Python dict literal at the start',
		'math',
		written`{'name': 'add', 'arguments': {'a': x, 'b': y}} is what your function should return; x and y are the parsed numbers.`,
	),
	answer(
		'an array of tools with name and parameters, tool definitions',
		'math',
		written`[{"name": "add", "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}}, {"name": "lookup", "parameters": {"type": "object", "properties": {"input": {"type": "string"}}}}]`,
	),
	answer(
		'a Java annotation-defined tool',
		'weather',
		written`ˋˋˋjava
@Tool(name = "get_weather", description = "Gets the weather")
public String getWeather(@P("city") String city) {
    return client.weather(city);
}
ˋˋˋ`,
	),
	answer(
		'a pythonic list of calls in a python fence after prose',
		'math',
		written`With Llama 4's pythonic format the model would write:

ˋˋˋpython
[add(a=2, b=3), lookup(input="otter")]
ˋˋˋ

and your code evaluates each call with ast.literal_eval on the arguments.`,
	),
	answer(
		'a whole-answer yaml fence naming a bound tool as data',
		'weather',
		written`ˋˋˋyaml
name: get_weather
arguments:
  city: Paris
ˋˋˋ`,
	),
	answer(
		'a whole-answer python fence with one call of a bound tool and an assignment',
		'weather',
		written`ˋˋˋpython
forecast = get_weather(city="Paris")
ˋˋˋ`,
	),
	answer(
		'a JSON Schema draft asked for, bare',
		'mail',
		written`{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "send_email", "type": "object", "properties": {"to": {"type": "string", "format": "email"}}, "required": ["to"]}`,
	),
	answer(
		'an MCP tools/list result, fenced',
		'math',
		written`ˋˋˋjson
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}}
ˋˋˋ`,
	),
	answer(
		'a markdown checklist with tool names',
		'mail',
		written`- [x] send_email wired to SMTP
- [ ] create_ticket needs the Jira token
- [ ] tests for both`,
	),
	answer(
		'a Lisp s-expression',
		'math',
		written`ˋˋˋlisp
(defun add (a b) (+ a b))
(add 2 3) ; => 5
ˋˋˋ`,
	),
	answer(
		'a Prolog fact base',
		'math',
		written`ˋˋˋprolog
add(A, B, C) :- C is A + B.
?- add(2, 3, X).
X = 5.
ˋˋˋ`,
	),
	answer(
		'a PowerShell object piped to JSON',
		'mail',
		written`ˋˋˋpowershell
@{ name = 'create_ticket'; arguments = @{ title = 'VPN drops' } } | ConvertTo-Json
ˋˋˋ`,
	),
	answer(
		'an answer in French with a call in inline code',
		'weather',
		written`Pour tester, appelez ˋget_weather(city="Paris")ˋ dans la console ; la fonction renvoie un dictionnaire.`,
	),
	answer(
		'a numbered list whose items open with brackets',
		'math',
		written`[1] add(2, 3) is 5
[2] lookup("otter") is a definition
[3] both are pure functions`,
	),
	answer(
		'a JSON Lines log of calls asked for',
		'weather',
		written`{"ts": 1, "name": "get_weather", "arguments": {"city": "Paris"}, "ms": 120}
{"ts": 2, "name": "search_docs", "arguments": {"query": "limits"}, "ms": 80}`,
	),
	answer(
		'an Elm record',
		'weather',
		written`ˋˋˋelm
type alias Call = { name : String, arguments : Dict String String }

paris = { name = "get_weather", arguments = Dict.fromList [ ( "city", "Paris" ) ] }
ˋˋˋ`,
	),
];
