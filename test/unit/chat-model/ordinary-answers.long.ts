/**
 * Long ordinary answers (10 to 60 KB: a guide with code in many languages, a module, a data
 * dump), answers the model's token limit cut off mid-code and mid-JSON, and answers after the
 * model's reasoning (which is taken out: the answer is what follows it).
 */
import {
	CODE,
	DOCUMENTS_AND_CONFIGS,
	JAVASCRIPT,
	N8N_EXPRESSIONS,
	OTHER_APIS,
	PYTHON,
} from './ordinary-answers.short';
import { written, type OrdinaryAnswer, type ToolSet } from './ordinary-answers.tools';

const SHORT = [...CODE, ...DOCUMENTS_AND_CONFIGS, ...OTHER_APIS];

/** A guide of about `size` characters: sections, each a heading, the answers of one kind, a word. */
function guide(size: number, tools: ToolSet, offset: number): string {
	const parts = [
		written`# Calling your services from every language

This guide shows the same requests in each language your teams use. Each section is independent; copy what you need.`,
	];
	let length = parts[0].length;
	for (let i = 0; length < size; i++) {
		const piece = SHORT[(offset + i * 7) % SHORT.length];
		const section = `## ${i + 1}. ${piece.about}\n\n${piece.answer}\n\nNext, the same idea from another angle.`;
		parts.push(section);
		length += section.length + 2;
	}
	return parts.join('\n\n');
}

/** A Python module of about `size` characters: handlers named like the tools, and their tests. */
function pythonModule(size: number): string {
	const lines = [
		written`Here is the full module. It defines one handler per tool and a test for each.

ˋˋˋpython
"""Tool handlers for the assistant backend."""
import json
import logging

log = logging.getLogger(__name__)
REGISTRY = {}


def tool(fn):
    REGISTRY[fn.__name__] = fn
    return fn
`,
	];
	let length = lines[0].length;
	for (let i = 0; length < size; i++) {
		const name = ['get_weather', 'search_docs', 'send_email', 'create_ticket'][i % 4];
		const block = written`

@tool
def ${name}_v${i}(**arguments):
    log.info("calling %s with %s", "${name}", json.dumps(arguments))
    result = {"name": "${name}", "arguments": arguments, "version": ${i}}
    if not arguments:
        raise ValueError("${name} needs arguments")
    return result


def test_${name}_v${i}():
    assert ${name}_v${i}(city="Paris", query="x")["name"] == "${name}"
    assert json.loads(json.dumps({"name": "${name}", "arguments": {"n": ${i}}}))["arguments"]["n"] == ${i}
`;
		lines.push(block);
		length += block.length;
	}
	lines.push(written`ˋˋˋ

Run the tests with ˋpytest tools.pyˋ; the registry maps each name to its handler.`);
	return lines.join('');
}

/** A data dump of `count` records with `name` keys, in a JSON fence between two sentences. */
function dataDump(count: number): string {
	const records = Array.from({ length: count }, (_, i) =>
		JSON.stringify({
			name: `User ${i}`,
			email: `user${i}@example.com`,
			arguments: i % 5 === 0 ? ['--admin'] : [],
			tool: ['send_email', 'create_ticket'][i % 2],
			created: `2024-0${(i % 9) + 1}-1${i % 10}`,
		}),
	);
	return written`Here are the ${count} users exported from the CRM:

ˋˋˋjson
[
  ${records.join(',\n  ')}
]
ˋˋˋ

Import it with the Spreadsheet File node or ˋjqˋ.`;
}

export const LONG: OrdinaryAnswer[] = [
	{ about: 'a 10 KB guide', tools: 'weather', answer: guide(10_000, 'weather', 0) },
	{ about: 'a 25 KB guide', tools: 'math', answer: guide(25_000, 'math', 3) },
	{ about: 'a 40 KB guide', tools: 'mail', answer: guide(40_000, 'mail', 5) },
	{ about: 'a 60 KB guide', tools: 'weather', answer: guide(60_000, 'weather', 11) },
	{ about: 'a 20 KB Python module', tools: 'weather', answer: pythonModule(20_000) },
	{ about: 'a 50 KB Python module', tools: 'mail', answer: pythonModule(50_000) },
	{ about: 'a 30 KB data dump', tools: 'mail', answer: dataDump(250) },
];

/** The answer cut at `at` (a share of its length), where a token limit would stop the model. */
const cut = (about: string, tools: ToolSet, text: string, share: number): OrdinaryAnswer => ({
	about: `cut off: ${about}`,
	tools,
	// a chat answer is read without the white space at its ends
	answer: text.slice(0, Math.floor(text.length * share)).trimEnd(),
});

/** Where a fence's code is half written: the answer ends inside its first code block. */
function midCode(text: string): number {
	const open = text.indexOf('```');
	const close = text.indexOf('```', open + 3);
	return (open + close) / 2 / text.length;
}

const FENCED = [...CODE, ...DOCUMENTS_AND_CONFIGS].filter((a) => a.answer.split('```').length >= 3);

export const CUT_OFF: OrdinaryAnswer[] = [
	...FENCED.filter((_, i) => i % 3 === 0).map((a) =>
		cut(`${a.about}, mid-code`, a.tools, a.answer, midCode(a.answer)),
	),
	...LONG.map((a) => cut(`${a.about}, at 70 %`, a.tools, a.answer, 0.7)),
	cut(
		'a bare JSON array of users, mid-record',
		'mail',
		`[${Array.from({ length: 40 }, (_, i) => JSON.stringify({ name: `User ${i}`, role: 'member', active: true })).join(', ')}, {"name": "Us`,
		1,
	),
	cut(
		'a JSON object naming a tool with its arguments, mid-string, after a sentence',
		'weather',
		written`Here's the request body your backend should send:

ˋˋˋjson
{"model": "gpt-4o", "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The ci`,
		1,
	),
	cut(
		'python building a call payload, mid-dict',
		'math',
		written`Like this:

ˋˋˋpython
payload = {"name": "add", "arguments": {"a": 2,`,
		1,
	),
	cut(
		'a JSON workflow export, mid-node',
		'math',
		written`ˋˋˋjson
{
  "name": "My workflow",
  "nodes": [
    {"name": "lookup", "type": "n8n-nodes-base.code", "parameters": {"jsCode": "return items.map(i => ({json: {`,
		1,
	),
];

const REASONINGS: Array<[string, string]> = [
	[
		'<think>\nThe user asks for code. No tool is needed: I could call get_weather, but they want to write it themselves.\n</think>\n\n',
		'think',
	],
	['<think>The question is about syntax; answer directly.</think>', 'think, no line break'],
];

/** Short answers after reasoning: read, the answer is the text after it, word for word. */
export const AFTER_REASONING: Array<OrdinaryAnswer & { reasoning: string }> = [
	...PYTHON,
	...JAVASCRIPT,
	...N8N_EXPRESSIONS,
]
	.filter((_, i) => i % 2 === 0)
	.flatMap((a, i) => {
		const [reasoning, kind] = REASONINGS[i % REASONINGS.length];
		return [{ ...a, about: `${a.about}, after reasoning (${kind})`, reasoning }];
	});
