/**
 * The release check's hold on n8n's next rules (scripts/coming-rules.mjs, run by
 * scripts/lint-package.mjs): a small package written by hand passes, and each violation planted in
 * a copy of it is refused, naming the rule. The cases follow each rule's documented examples (the
 * rule pages of @n8n/eslint-plugin-community-nodes in n8n's repository: no-ai-codex-category,
 * no-codex-subcategories, require-mit-license, valid-author, no-monorepo, no-runtime-dependencies,
 * trigger-node-conventions, node-operation-error-itemindex, no-restricted-globals,
 * no-restricted-imports). The packages are written to a temporary folder and checked in one child
 * process (the checks are an ES module, which jest's module system does not load).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

const CHECK = `
import { readFileSync } from 'node:fs';
import { checkComingRules } from './scripts/coming-rules.mjs';
const all = [];
for (const dir of JSON.parse(readFileSync(0, 'utf8'))) {
	const findings = [];
	checkComingRules(dir, (finding) => findings.push(finding));
	all.push(findings);
}
process.stdout.write(JSON.stringify(all));
`;

type Files = Record<string, string>;

const MIT = `MIT License

Copyright (c) 2026 Jane Doe

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction.
`;

const MANIFEST = {
	name: 'n8n-nodes-example',
	version: '1.0.0',
	license: 'MIT',
	author: { name: 'Jane Doe', email: 'jane@example.com' },
	repository: { type: 'git', url: 'https://github.com/example/n8n-nodes-example.git' },
	peerDependencies: { 'n8n-workflow': '*' },
};

const ACTION_NODE = `import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export class Example implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Example',
		name: 'example',
		group: ['transform'],
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			if (!items[i].json.id) throw new NodeOperationError(this.getNode(), 'No id', { itemIndex: i });
		}
		return [items];
	}
}
`;

const TRIGGER_NODE = `import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

export class ExampleTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Example Trigger',
		name: 'exampleTrigger',
		group: ['trigger'],
		inputs: [],
		outputs: ['main'],
		properties: [],
	};
}
`;

const MODEL_NODE = `import type { ChatModel } from '@n8n/ai-node-sdk';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

export type Supplied = ChatModel;
export class LmChatExample implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Example Chat Model',
		name: 'lmChatExample',
		group: ['transform'],
		inputs: [],
		outputs: ['ai_languageModel'],
		properties: [],
	};
}
`;

const codex = (node: string, rest: object) =>
	JSON.stringify({ node: `n8n-nodes-example.${node}`, ...rest });

/** A package that follows every rule: an action node, its trigger and a chat model on the SDK. */
const CLEAN: Files = {
	'package.json': JSON.stringify(MANIFEST),
	LICENSE: MIT,
	'nodes/Example/Example.node.ts': ACTION_NODE,
	'nodes/Example/Example.node.json': codex('example', { categories: ['Development'] }),
	'nodes/Example/ExampleTrigger.node.ts': TRIGGER_NODE,
	'nodes/Example/ExampleTrigger.node.json': codex('exampleTrigger', {
		categories: ['Development'],
	}),
	'nodes/Example/LmChatExample.node.ts': MODEL_NODE,
	'nodes/Example/LmChatExample.node.json': codex('lmChatExample', {
		categories: ['AI'],
		subcategories: { AI: ['Language Models', 'Root Nodes'] },
	}),
	'dist/nodes/Example/Example.node.js':
		'"use strict";\nconst n8n_workflow_1 = require("n8n-workflow");\nconst helper_1 = require("./helper");\nexports.x = [n8n_workflow_1, helper_1];\n',
};

const manifest = (change: object) => JSON.stringify({ ...MANIFEST, ...change });

/** Each planted violation: the files it changes, and the rule the check must name. */
const PLANTED: Array<{ what: string; files: Files; rule: string; also?: string }> = [
	{
		what: 'the action node in the "AI" category without the SDK',
		files: {
			'nodes/Example/Example.node.json': codex('example', { categories: ['Development', 'AI'] }),
		},
		rule: 'no-ai-codex-category',
	},
	{
		what: 'the trigger with subcategories without the SDK',
		files: {
			'nodes/Example/ExampleTrigger.node.json': codex('exampleTrigger', {
				categories: ['Development'],
				subcategories: { Development: ['Helpers'] },
			}),
		},
		rule: 'no-codex-subcategories',
	},
	{
		what: 'the chat model importing the SDK only inside a function',
		files: {
			'nodes/Example/LmChatExample.node.ts': MODEL_NODE.replace(
				"import type { ChatModel } from '@n8n/ai-node-sdk';\n",
				'',
			).replace(
				'export type Supplied = ChatModel;',
				"export const load = () => require('@n8n/ai-node-sdk');",
			),
		},
		rule: 'no-ai-codex-category',
		also: 'no-codex-subcategories',
	},
	{
		what: 'license Apache-2.0',
		files: { 'package.json': manifest({ license: 'Apache-2.0' }) },
		rule: 'require-mit-license',
	},
	{
		what: 'a LICENSE that is not the MIT text',
		files: { LICENSE: 'All rights reserved.\n' },
		rule: 'require-mit-license',
	},
	{
		what: 'an author with a name and no email',
		files: { 'package.json': manifest({ author: { name: 'Jane Doe' } }) },
		rule: 'valid-author',
	},
	{
		what: 'an author string without an email',
		files: { 'package.json': manifest({ author: 'Jane Doe' }) },
		rule: 'valid-author',
	},
	{
		what: 'a repository directory (a monorepo)',
		files: {
			'package.json': manifest({
				repository: {
					type: 'git',
					url: 'https://github.com/example/packages.git',
					directory: 'packages/n8n-nodes-example',
				},
			}),
		},
		rule: 'no-monorepo',
	},
	{
		what: 'a runtime dependency',
		files: { 'package.json': manifest({ dependencies: { axios: '^1.7.0' } }) },
		rule: 'no-runtime-dependencies',
	},
	{
		what: 'a trigger whose name lacks "Trigger"',
		files: {
			'nodes/Example/ExampleTrigger.node.ts': TRIGGER_NODE.replace(
				"name: 'exampleTrigger'",
				"name: 'exampleEvents'",
			),
		},
		rule: 'trigger-node-conventions',
	},
	{
		what: 'a trigger with a main input',
		files: {
			'nodes/Example/ExampleTrigger.node.ts': TRIGGER_NODE.replace(
				'inputs: []',
				"inputs: ['main']",
			),
		},
		rule: 'trigger-node-conventions',
	},
	{
		what: 'a NodeOperationError in the item loop without its index',
		files: {
			'nodes/Example/Example.node.ts': ACTION_NODE.replace("'No id', { itemIndex: i }", "'No id'"),
		},
		rule: 'node-operation-error-itemindex',
	},
	{
		what: 'a NodeApiError in a function given the item index, without it',
		files: {
			'nodes/Example/actions/get.ts': `import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
export async function get(this: IExecuteFunctions, itemIndex: number, error: JsonObject) {
	throw new NodeApiError(this.getNode(), error);
}
`,
		},
		rule: 'node-operation-error-itemindex',
	},
	{
		what: 'process.env read in the shipped code',
		files: {
			'dist/nodes/Example/Example.node.js':
				'"use strict";\nexports.key = process.env.EXAMPLE_KEY;\n',
		},
		rule: 'no-restricted-globals',
	},
	{
		what: 'setTimeout in the shipped code',
		files: {
			'dist/nodes/Example/Example.node.js':
				'"use strict";\nexports.wait = (ms) => new Promise((r) => setTimeout(r, ms));\n',
		},
		rule: 'no-restricted-globals',
	},
	{
		what: 'a require of axios in the shipped code',
		files: {
			'dist/nodes/Example/Example.node.js':
				'"use strict";\nconst axios = require("axios");\nexports.get = axios.get;\n',
		},
		rule: 'no-restricted-imports',
	},
	{
		what: 'a require of fs in the shipped code',
		files: {
			'dist/nodes/Example/Example.node.js':
				'"use strict";\nconst fs = require("node:fs");\nexports.read = fs.readFileSync;\n',
		},
		rule: 'no-restricted-imports',
	},
];

function writePackage(dir: string, files: Files): string {
	for (const [rel, text] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
		fs.writeFileSync(path.join(dir, rel), text);
	}
	return dir;
}

describe("the release check holds n8n's next rules", () => {
	const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'coming-rules-'));
	let clean: string[];
	let repository: string[];
	let planted: string[][];
	beforeAll(() => {
		const dirs = [
			writePackage(path.join(temp, 'clean'), CLEAN),
			ROOT,
			...PLANTED.map((plant, i) =>
				writePackage(path.join(temp, `planted-${i}`), { ...CLEAN, ...plant.files }),
			),
		];
		const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHECK], {
			cwd: ROOT,
			input: JSON.stringify(dirs),
			encoding: 'utf8',
		});
		[clean, repository, ...planted] = JSON.parse(out) as string[][];
	}, 60_000);
	afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

	it('passes a package written by the rules, and this repository', () => {
		expect(clean).toEqual([]);
		expect(repository).toEqual([]);
	});

	it.each(PLANTED.map((plant, i) => [plant.what, plant.rule, i] as const))(
		'refuses %s, naming %s',
		(_what, rule, i) => {
			const named = [rule, PLANTED[i].also].filter(Boolean);
			expect(planted[i].some((finding) => finding.includes(`(${rule}`))).toBe(true);
			// nothing else: the finding is the plant's
			for (const finding of planted[i])
				expect(named.some((name) => finding.includes(`(${name}`))).toBe(true);
		},
	);
});
