/** Ordinary answers in JavaScript and TypeScript: calls, objects, JSON built, tools' namesakes and their tests. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const JAVASCRIPT: OrdinaryAnswer[] = [
	answer(
		'javascript: JSON.stringify of name and arguments from $json',
		'math',
		written`In a Code node you can build the body like this:

ˋˋˋjavascript
const body = JSON.stringify({"name": $json.name, "arguments": $json.args});
return [{ json: { body } }];
ˋˋˋ

Then reference ˋ{{ $json.body }}ˋ in the HTTP Request node's body field.`,
	),
	answer(
		'javascript: fetch with a JSON body',
		'weather',
		written`ˋˋˋjs
async function getWeather(city) {
  const response = await fetch('https://api.example.com/weather', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ city, unit: 'celsius' }),
  });
  if (!response.ok) throw new Error(ˋWeather request failed: $\{response.status}ˋ);
  return response.json();
}

getWeather('Lisbon').then(console.log);
ˋˋˋ

ˋfetchˋ is built into Node 18+ and every browser.`,
	),
	answer(
		'javascript: Array.map over users with name',
		'mail',
		written`Use ˋmapˋ to pick the names:

ˋˋˋjs
const users = [{ name: 'Ana', role: 'admin' }, { name: 'Ben', role: 'user' }];
const names = users.map((user) => user.name);
console.log(names); // ['Ana', 'Ben']
ˋˋˋ`,
	),
	answer(
		'javascript: unfenced code node snippet',
		'math',
		written`Here's the Code node version:

const items = $input.all();
return items.map(item => ({ json: { name: item.json.name, total: item.json.a + item.json.b } }));

It runs once for all items and returns one item per input item.`,
	),
	answer(
		'javascript: jest tests for lookup and add',
		'math',
		written`ˋˋˋjavascript
const { add, lookup } = require('./tools');

describe('tools', () => {
  test('add sums two numbers', () => {
    expect(add(2, 3)).toBe(5);
  });

  test('lookup finds a word', async () => {
    await expect(lookup('otter')).resolves.toEqual({ word: 'otter', found: true });
  });
});
ˋˋˋ

Put it in ˋtools.test.jsˋ and run ˋnpx jestˋ.`,
	),
	answer(
		'javascript: express route send_email',
		'mail',
		written`ˋˋˋjs
app.post('/send', async (req, res) => {
  const { to, subject, body } = req.body;
  try {
    await send_email({ to, subject, body });
    res.json({ ok: true });
  } catch (err) {
    res.status(500).json({ ok: false, error: err.message });
  }
});
ˋˋˋ

Validate ˋtoˋ before sending so a typo does not bounce.`,
	),
	answer(
		'javascript: reduce to an object',
		'math',
		written`ˋˋˋjs
const totals = orders.reduce((acc, order) => {
  acc[order.customer] = (acc[order.customer] ?? 0) + order.amount;
  return acc;
}, {});
ˋˋˋ

ˋtotalsˋ ends up as ˋ{ "alice": 120, "bob": 35 }ˋ for the sample data.`,
	),
	answer(
		'typescript: tools defined and tested',
		'math',
		written`Here is a TypeScript module with both functions and their tests:

ˋˋˋts
// tools.ts
export function add(a: number, b: number): number {
  return a + b;
}

export async function lookup(input: string): Promise<string | undefined> {
  const entries: Record<string, string> = { otter: 'a river animal', heron: 'a wading bird' };
  return entries[input.toLowerCase()];
}
ˋˋˋ

ˋˋˋts
// tools.test.ts
import { add, lookup } from './tools';

describe('add', () => {
  it('adds', () => expect(add(2, 3)).toBe(5));
});

describe('lookup', () => {
  it('finds otter', async () => expect(await lookup('otter')).toBe('a river animal'));
  it('misses unknown words', async () => expect(await lookup('xyz')).toBeUndefined());
});
ˋˋˋ`,
	),
	answer(
		'typescript: an interface and a typed call',
		'weather',
		written`ˋˋˋtypescript
interface WeatherQuery {
  city: string;
  unit?: 'celsius' | 'fahrenheit';
}

async function get_weather({ city, unit = 'celsius' }: WeatherQuery) {
  const res = await fetch(ˋ/api/weather?city=$\{encodeURIComponent(city)}&unit=$\{unit}ˋ);
  return (await res.json()) as { temperature: number };
}

const { temperature } = await get_weather({ city: 'Oslo' });
ˋˋˋ

The default for ˋunitˋ keeps old callers working.`,
	),
	answer(
		'typescript: zod schema with name',
		'mail',
		written`ˋˋˋts
import { z } from 'zod';

const Ticket = z.object({
  name: z.string().min(1),
  arguments: z.record(z.unknown()).optional(),
  priority: z.enum(['low', 'high']).default('low'),
});

type Ticket = z.infer<typeof Ticket>;
const parsed = Ticket.parse({ name: 'create_ticket', priority: 'high' });
ˋˋˋ

ˋparseˋ throws a ZodError with every problem when the input does not match.`,
	),
	answer(
		'typescript: generic reducer, unfenced with inline code',
		'math',
		written`A generic helper keeps it typed: function sum<T>(items: T[], pick: (item: T) => number) { return items.reduce((total, item) => total + pick(item), 0); } — call it as ˋsum(orders, (o) => o.amount)ˋ.`,
	),
	answer(
		'typescript: n8n node execute method',
		'weather',
		written`ˋˋˋts
async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const out: INodeExecutionData[] = [];
  for (let i = 0; i < items.length; i++) {
    const city = this.getNodeParameter('city', i) as string;
    const weather = await this.helpers.httpRequest({
      method: 'GET',
      url: 'https://api.example.com/weather',
      qs: { city },
      json: true,
    });
    out.push({ json: { name: city, weather } });
  }
  return [out];
}
ˋˋˋ`,
	),
	answer(
		'typescript: discriminated union of messages',
		'weather',
		written`Model the messages as a union keyed by ˋtypeˋ:

ˋˋˋts
type Part =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };

function describe(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'tool_use':
      return ˋcalls $\{part.name} with $\{JSON.stringify(part.input)}ˋ;
    case 'tool_result':
      return ˋresult for $\{part.tool_use_id}ˋ;
  }
}

describe({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } });
ˋˋˋ

TypeScript narrows ˋpartˋ in each branch, so ˋpart.nameˋ is only allowed for ˋtool_useˋ.`,
	),
	answer(
		'javascript: python-style call in a comment and a regex',
		'math',
		written`ˋˋˋjs
// matches calls like add(2, 3) or lookup("otter")
const CALL = /^(\w+)\((.*)\)$/;
const [, fn, args] = CALL.exec('add(2, 3)');
console.log(fn, args.split(',').map(Number)); // add [2, 3]
ˋˋˋ`,
	),
];
