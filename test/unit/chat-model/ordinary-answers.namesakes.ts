/**
 * Ordinary answers made from templates: for each bound tool, code that defines a function of its
 * name with a test that calls it, and code that builds a call-shaped payload naming it, in the
 * languages people ask for. The tool's own names and arguments, in code a person asked for.
 */
import { TOOL_SETS, written, type OrdinaryAnswer, type ToolSet } from './ordinary-answers.tools';

interface Namesake {
	tools: ToolSet;
	name: string;
	/** Its arguments as Python keyword arguments, JSON and positional values. */
	keywords: string;
	json: string;
	positional: string;
	params: string[];
}

const NAMESAKES: Namesake[] = [
	{
		name: 'add',
		keywords: 'a=2, b=3',
		json: '{"a": 2, "b": 3}',
		positional: '2, 3',
		params: ['a', 'b'],
	},
	{
		name: 'lookup',
		keywords: 'input="otter"',
		json: '{"input": "otter"}',
		positional: '"otter"',
		params: ['input'],
	},
	{
		name: 'get_weather',
		keywords: 'city="Paris", unit="celsius"',
		json: '{"city": "Paris", "unit": "celsius"}',
		positional: '"Paris", "celsius"',
		params: ['city', 'unit'],
	},
	{
		name: 'search_docs',
		keywords: 'query="rate limits", limit=5',
		json: '{"query": "rate limits", "limit": 5}',
		positional: '"rate limits", 5',
		params: ['query', 'limit'],
	},
	{
		name: 'send_email',
		keywords: 'to="ops@example.com", subject="Disk full", body="Server 3 is at 95%"',
		json: '{"to": "ops@example.com", "subject": "Disk full", "body": "Server 3 is at 95%"}',
		positional: '"ops@example.com", "Disk full", "Server 3 is at 95%"',
		params: ['to', 'subject', 'body'],
	},
	{
		name: 'create_ticket',
		keywords: 'title="VPN drops every hour", priority="high"',
		json: '{"title": "VPN drops every hour", "priority": "high"}',
		positional: '"VPN drops every hour", "high"',
		params: ['title', 'priority'],
	},
].map((n) => ({
	...n,
	tools: (Object.keys(TOOL_SETS) as ToolSet[]).find((set) =>
		TOOL_SETS[set].some((tool) => tool.name === n.name),
	)!,
}));

const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** [language, the answer for a tool]: a function of the tool's name and its test. */
const DEFINED: Array<[string, (n: Namesake) => string]> = [
	[
		'python with pytest',
		(n) => written`Here is a stub you can start from, with a test:

ˋˋˋpython
def ${n.name}(${n.params.join(', ')}):
    """Placeholder: replace with the real implementation."""
    return {${n.params.map((p) => `"${p}": ${p}`).join(', ')}}


def test_${n.name}():
    assert ${n.name}(${n.keywords}) == ${n.json}
ˋˋˋ

Run ˋpytest -k ${n.name}ˋ to run only this test.`,
	],
	[
		'javascript with node:test',
		(n) => written`ˋˋˋjs
import { test } from 'node:test';
import assert from 'node:assert/strict';

export function ${n.name}(${n.params.join(', ')}) {
  return { ${n.params.join(', ')} };
}

test('${n.name} returns its arguments', () => {
  assert.deepEqual(${n.name}(${n.positional}), ${n.json});
});
ˋˋˋ

ˋnode --test ${n.name}.test.mjsˋ runs it.`,
	],
	[
		'typescript with vitest',
		(n) => written`I'd type the arguments first:

ˋˋˋts
export interface ${camel(n.name)}Args {
${n.params.map((p) => `  ${p}: ${p === 'limit' || n.name === 'add' ? 'number' : 'string'};`).join('\n')}
}

export async function ${camel(n.name)}(args: ${camel(n.name)}Args): Promise<${camel(n.name)}Args> {
  return args;
}

it('${camel(n.name)} echoes', async () => {
  expect(await ${camel(n.name)}(${n.json})).toEqual(${n.json});
});
ˋˋˋ`,
	],
	[
		'go with a test',
		(n) => written`ˋˋˋgo
func ${camel(n.name)}(${n.params.map((p) => `${p} string`).join(', ')}) map[string]string {
	return map[string]string{${n.params.map((p) => `"${p}": ${p}`).join(', ')}}
}

func Test${camel(n.name)}(t *testing.T) {
	got := ${camel(n.name)}(${n.params.map((p) => `"${p}-value"`).join(', ')})
	if got["${n.params[0]}"] != "${n.params[0]}-value" {
		t.Fatalf("${n.name}: got %v", got)
	}
}
ˋˋˋ`,
	],
	[
		'java with JUnit',
		(n) => written`ˋˋˋjava
public final class Tools {
    public static Map<String, Object> ${camel(n.name)}(${n.params.map((p) => `Object ${p}`).join(', ')}) {
        return Map.of(${n.params.map((p) => `"${p}", ${p}`).join(', ')});
    }
}

class ToolsTest {
    @Test
    void ${camel(n.name)}KeepsItsArguments() {
        assertEquals(${n.params.length}, Tools.${camel(n.name)}(${n.positional}).size());
    }
}
ˋˋˋ`,
	],
	[
		'ruby with minitest',
		(n) => written`ˋˋˋruby
def ${n.name}(${n.params.map((p) => `${p}:`).join(', ')})
  { ${n.params.map((p) => `${p}: ${p}`).join(', ')} }
end

class ${camel(n.name)}Test < Minitest::Test
  def test_${n.name}
    assert_equal ${n.params.length}, ${n.name}(${n.keywords.replace(/=/g, ': ')}).size
  end
end
ˋˋˋ`,
	],
	[
		'php with PHPUnit',
		(n) => written`ˋˋˋphp
function ${n.name}(${n.params.map((p) => `$${p}`).join(', ')}): array
{
    return [${n.params.map((p) => `'${p}' => $${p}`).join(', ')}];
}

final class ${camel(n.name)}Test extends TestCase
{
    public function testItKeepsItsArguments(): void
    {
        $this->assertCount(${n.params.length}, ${n.name}(${n.positional}));
    }
}
ˋˋˋ`,
	],
	[
		'kotlin',
		(n) => written`ˋˋˋkotlin
fun ${camel(n.name)}(${n.params.map((p) => `${p}: Any`).join(', ')}) = mapOf(${n.params.map((p) => `"${p}" to ${p}`).join(', ')})

@Test
fun ${camel(n.name)}Works() {
    assertEquals(${n.params.length}, ${camel(n.name)}(${n.positional}).size)
}
ˋˋˋ`,
	],
];

/** [language, the answer for a tool]: code that builds a call-shaped payload naming the tool. */
const BUILT: Array<[string, (n: Namesake) => string]> = [
	[
		'a python dict posted with requests',
		(n) => written`ˋˋˋpython
payload = {"name": "${n.name}", "arguments": ${n.json}}
response = requests.post(f"{API}/tools/run", json=payload, timeout=10)
print(response.json())
ˋˋˋ`,
	],
	[
		'a javascript object sent with fetch',
		(n) => written`Build the object and send it:

ˋˋˋjs
const call = { name: '${n.name}', arguments: ${n.json} };
await fetch('/tools/run', { method: 'POST', body: JSON.stringify(call) });
ˋˋˋ`,
	],
	[
		'a ruby hash',
		(n) => written`ˋˋˋruby
call = { 'name' => '${n.name}', 'arguments' => JSON.parse('${n.json}') }
Net::HTTP.post(URI('https://tools.example.com/run'), call.to_json, 'Content-Type' => 'application/json')
ˋˋˋ`,
	],
	[
		'a curl command',
		(n) => written`ˋˋˋbash
curl -X POST "$TOOLS_URL/run" -H 'Content-Type: application/json' \
  --data '{"name": "${n.name}", "arguments": ${n.json}}'
ˋˋˋ

Use ˋ--data @call.jsonˋ if the body gets long.`,
	],
	[
		'a YAML test fixture',
		(n) => written`ˋˋˋyaml
cases:
  - name: ${n.name}
    arguments: ${n.json}
    expect:
      status: ok
ˋˋˋ

Each case is replayed by the test runner against the staging API.`,
	],
	[
		'a usage record, bare JSON with no arguments',
		(n) => written`{"name": "${n.name}", "calls_today": 312, "errors_today": 4, "p95_ms": 240}`,
	],
];

export const NAMESAKE_ANSWERS: OrdinaryAnswer[] = NAMESAKES.flatMap((n) => [
	...DEFINED.map(([language, write]) => ({
		about: `${n.name} defined in ${language}`,
		tools: n.tools,
		answer: write(n),
	})),
	...BUILT.map(([language, write]) => ({
		about: `a payload naming ${n.name}: ${language}`,
		tools: n.tools,
		answer: write(n),
	})),
]);
