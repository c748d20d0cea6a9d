/**
 * One definition of a fenced code block for every reader (helpers/output/codeFences.ts), checked
 * against the CommonMark Spec 0.31.2, section 4.5 "Fenced code blocks"
 * (https://spec.commonmark.org/0.31.2/#fenced-code-blocks): each case below is one of that
 * section's examples, its input and its rendered code block written out by hand (the content as the
 * spec's `<pre><code>` holds it, the language as its `class="language-…"`). Then the readers that
 * meet fences (tool calls, the stream, structured output) all take tildes as backticks, and no file
 * of nodes/ but codeFences.ts spells a fence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fencesOf } from '../../nodes/AgentPlatform/helpers/output/codeFences';
import { extractJson } from '../../nodes/AgentPlatform/helpers/output/jsonValidation';
import {
	readToolsAnswer,
	StreamedText,
	type BoundTool,
} from '../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';

/** The blocks as CommonMark renders them: language and content (each line with its break). */
const blocks = (text: string) =>
	fencesOf(text).map((fence) => ({
		language: fence.language,
		content: text.slice(fence.contentStart, fence.contentEnd),
	}));

describe('fenced code blocks as CommonMark 0.31.2 (4.5) defines them', () => {
	it.each<[string, string, Array<{ language: string; content: string }>]>([
		['backticks', '```\n<\n >\n```\n', [{ language: '', content: '<\n >\n' }]],
		['tildes', '~~~\n<\n >\n~~~\n', [{ language: '', content: '<\n >\n' }]],
		['two backticks are inline code, no fence', '``\nfoo\n``\n', []],
		[
			'a closing fence is of the opening character',
			'```\naaa\n~~~\n```\n',
			[{ language: '', content: 'aaa\n~~~\n' }],
		],
		['the same with tildes', '~~~\naaa\n```\n~~~\n', [{ language: '', content: 'aaa\n```\n' }]],
		[
			'a closing fence at least as long as the opening one',
			'````\naaa\n```\n``````\n',
			[{ language: '', content: 'aaa\n```\n' }],
		],
		['the same with tildes', '~~~~\naaa\n~~~\n~~~~\n', [{ language: '', content: 'aaa\n~~~\n' }]],
		['unclosed: the block runs to the end', '```\n', [{ language: '', content: '' }]],
		[
			'unclosed, with a shorter run inside',
			'`````\n\n```\naaa\n',
			[{ language: '', content: '\n```\naaa\n' }],
		],
		['an empty block', '```\n```\n', [{ language: '', content: '' }]],
		[
			'a closing fence has no info string',
			'```\naaa\n``` aaa\n```\n',
			[{ language: '', content: 'aaa\n``` aaa\n' }],
		],
		[
			'an info string gives the language',
			'```ruby\ndef foo(x)\nend\n```\n',
			[{ language: 'ruby', content: 'def foo(x)\nend\n' }],
		],
		["a backtick in a backtick fence's info string: inline code", '``` ```\naaa\n', []],
		[
			"a tilde fence's info string may hold backticks",
			'~~~ aa ``` ~~~\nfoo\n~~~\n',
			[{ language: 'aa', content: 'foo\n' }],
		],
		[
			'spaces after a closing fence',
			'```\naaa\n```   \nbbb\n',
			[{ language: '', content: 'aaa\n' }],
		],
	])('%s', (_, text, expected) => {
		expect(blocks(text)).toEqual(expected);
	});
});

const LOOKUP: BoundTool = {
	name: 'lookup',
	description: 'Looks a word up',
	schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
};

describe('every reader takes a tilde fence as a backtick one', () => {
	const example =
		'Models of the Qwen family answer with tools in tags.\nEach call is JSON.\nThe tags are special tokens.\nQwen writes each call like this:\n\n~~~xml\n<tool_call>\n{"name": "lookup", "arguments": {"input": "otter"}}\n</tool_call>\n~~~\n\nThe tags wrap the JSON.';

	it('a call in an explanation, fenced with tildes, is code: the final answer', () => {
		expect(readToolsAnswer(example, [LOOKUP])).toEqual({ kind: 'final', text: example });
	});

	it('the stream shows it as it comes, nothing withheld', () => {
		const stream = new StreamedText([LOOKUP]);
		let shown = '';
		for (let at = 0; at < example.length; at += 7) shown += stream.push(example.slice(at, at + 7));
		expect(shown).toBe(example);
	});

	it("structured output reads the JSON of a tilde fence, and a longer run's content whole", () => {
		expect(extractJson('Here it is:\n~~~json\n{"a": 1}\n~~~')).toEqual({
			ok: true,
			value: { a: 1 },
		});
		expect(extractJson('````json\n{"code": "```"}\n````')).toEqual({
			ok: true,
			value: { code: '```' },
		});
	});
});

describe('one definition of a fence', () => {
	/** The source files of nodes/, comments aside. */
	function sources(dir: string): Array<[string, string]> {
		return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
			const file = path.join(dir, entry.name);
			if (entry.isDirectory()) return sources(file);
			if (!entry.name.endsWith('.ts')) return [];
			const code = fs
				.readFileSync(file, 'utf8')
				.replace(/\/\*[\s\S]*?\*\//g, '')
				.replace(/^\s*\/\/.*$/gm, '');
			return [[path.relative(path.resolve(__dirname, '../..'), file), code]];
		});
	}

	it('only helpers/output/codeFences.ts spells a fence (``` or ~~~, or a run pattern)', () => {
		const spelling = sources(path.resolve(__dirname, '../../nodes'))
			.filter(([, code]) => /```|~~~|`\{3|~\{3/.test(code))
			.map(([file]) => file);
		expect(spelling).toEqual(['nodes/AgentPlatform/helpers/output/codeFences.ts']);
	});
});
