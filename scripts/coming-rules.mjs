#!/usr/bin/env node
/**
 * n8n's next rules for community packages, held by the release check (scripts/lint-package.mjs) as
 * facts of its own, written from each rule's documented requirement (the rule pages of
 * `@n8n/eslint-plugin-community-nodes` in n8n's repository, and n8n's verification guidelines),
 * not from the rules' code; several are not in the plugin the registry serves yet (docs/verification.md):
 * - codex: the category "AI" and any `subcategories` only on a node whose `.node.ts` has a
 *   top-level `import` from `@n8n/ai-node-sdk` (no-ai-codex-category, no-codex-subcategories);
 * - package.json: license MIT and a LICENSE with the MIT text (require-mit-license), an author with
 *   a name and an email (valid-author), `repository` without a monorepo `directory` (no-monorepo),
 *   no runtime dependency of any kind (no-runtime-dependencies);
 * - a trigger is named as one: class and `name` end in "Trigger", `displayName` says "Trigger",
 *   no inputs (trigger-node-conventions);
 * - a NodeOperationError or NodeApiError made where an item index is in scope carries it in its
 *   options (node-operation-error-itemindex: inside a loop over `this.getInputData()`; here also in
 *   any function given the item's index, as this package's execute path is);
 * - no restricted global (`process`, `globalThis`, timers…) and no import outside n8n's allowed
 *   modules (no-restricted-globals, no-restricted-imports), on the shipped JavaScript.
 * The code rules are in coming-rules-code.mjs.
 *   usage: node scripts/coming-rules.mjs <package folder> [--json]   (the unpacked tarball, or the source)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import glob from 'fast-glob';
import ts from 'typescript';
import {
	checkGlobalsAndImports,
	checkItemIndex,
	lineOf,
	parse,
	SDK,
} from './coming-rules-code.mjs';

export { checkGlobalsAndImports, checkItemIndex };

const DEPENDENCY_FIELDS = [
	'dependencies',
	'optionalDependencies',
	'bundleDependencies',
	'bundledDependencies',
];

/** Whether the file has a top-level `import … from '@n8n/ai-node-sdk'` (a type-only one counts). */
function importsSdk(file) {
	if (!fs.existsSync(file)) return false;
	return parse(file).statements.some(
		(s) => ts.isImportDeclaration(s) && s.moduleSpecifier.text === SDK,
	);
}

/** Codex: "AI" and subcategories only on a node built on the SDK (its sibling .node.ts imports it). */
export function checkCodex(dir, fail) {
	for (const rel of glob.sync('nodes/**/*.node.json', { cwd: dir })) {
		const codex = JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8'));
		const nodeFile = path.join(dir, rel.replace(/\.json$/, '.ts'));
		if (importsSdk(nodeFile)) continue;
		if ((codex.categories ?? []).includes('AI'))
			fail(
				`${rel}: the codex category "AI" is for nodes built on ${SDK}, and ${path.basename(nodeFile)} does not import it (no-ai-codex-category)`,
			);
		if (codex.subcategories !== undefined)
			fail(
				`${rel}: codex subcategories are for nodes built on ${SDK}, and ${path.basename(nodeFile)} does not import it (no-codex-subcategories)`,
			);
	}
	for (const rel of glob.sync('nodes/**/*.node.ts', { cwd: dir })) {
		const file = path.join(dir, rel);
		if (importsSdk(file)) continue;
		const sf = parse(file);
		const visit = (node) => {
			if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'codex') {
				const text = node.initializer.getText(sf);
				if (/['"]AI['"]/.test(text) || /\bsubcategories\b/.test(text))
					fail(
						`${rel}:${lineOf(sf, node)}: an inline codex with "AI" or subcategories, and no import of ${SDK} (no-ai-codex-category, no-codex-subcategories)`,
					);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
}

/** package.json and LICENSE: MIT, an author to reach, one repository of its own, no dependencies. */
export function checkPackageFacts(dir, fail) {
	const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	if (manifest.license !== 'MIT')
		fail(
			`package.json: license is ${JSON.stringify(manifest.license)}, not "MIT" (require-mit-license)`,
		);
	const license = glob.sync('LICENSE*', { cwd: dir })[0];
	const licenseText = license ? fs.readFileSync(path.join(dir, license), 'utf8') : '';
	if (
		!/^\s*MIT License/.test(licenseText) ||
		!/Permission is hereby granted, free of charge/.test(licenseText)
	)
		fail(`${license ?? 'LICENSE'}: not the MIT license's text (require-mit-license)`);
	const author = manifest.author;
	const [name, email] =
		typeof author === 'string'
			? [author.replace(/<[^>]*>|\([^)]*\)/g, ''), /<([^>]*)>/.exec(author)?.[1]]
			: [author?.name, author?.email];
	if (!name?.trim() || !email?.trim())
		fail('package.json: author needs a name and an email (valid-author)');
	if (manifest.repository?.directory !== undefined)
		fail(
			`package.json: repository.directory ${JSON.stringify(manifest.repository.directory)} marks a monorepo; a community package needs a repository of its own (no-monorepo)`,
		);
	for (const field of DEPENDENCY_FIELDS) {
		const value = manifest[field];
		if (value && (Array.isArray(value) ? value.length : Object.keys(value).length))
			fail(
				`package.json: ${field} ${JSON.stringify(value)}: no runtime dependency (no-runtime-dependencies)`,
			);
	}
}

/** The node classes of a .node.ts file with their description's literal fields. */
function nodeClasses(sf) {
	const found = [];
	for (const statement of sf.statements) {
		if (!ts.isClassDeclaration(statement) || !statement.name) continue;
		const description = statement.members.find(
			(m) => ts.isPropertyDeclaration(m) && m.name.getText(sf) === 'description',
		)?.initializer;
		if (!description || !ts.isObjectLiteralExpression(description)) continue;
		const field = (key) =>
			description.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(sf) === key)
				?.initializer;
		const literal = (key) => {
			const value = field(key);
			return value && ts.isStringLiteralLike(value) ? value.text : undefined;
		};
		const group = field('group');
		const webhookMethods = statement.members.some((m) =>
			['webhookMethods', 'trigger', 'poll'].includes(m.name?.getText(sf)),
		);
		found.push({
			className: statement.name.text,
			name: literal('name'),
			displayName: literal('displayName'),
			inputs: field('inputs')?.getText(sf),
			isTrigger: (group && /['"]trigger['"]/.test(group.getText(sf))) || webhookMethods,
			line: lineOf(sf, statement),
		});
	}
	return found;
}

/** A trigger node says so: class and name end in "Trigger", displayName has it, no inputs. */
export function checkTriggers(dir, fail) {
	for (const rel of glob.sync('nodes/**/*.node.ts', { cwd: dir })) {
		for (const node of nodeClasses(parse(path.join(dir, rel)))) {
			if (!node.isTrigger && !node.className.endsWith('Trigger')) continue;
			const wrong = [];
			if (!node.className.endsWith('Trigger')) wrong.push(`class ${node.className}`);
			if (!node.name?.endsWith('Trigger')) wrong.push(`name ${JSON.stringify(node.name)}`);
			if (!node.displayName?.includes('Trigger'))
				wrong.push(`displayName ${JSON.stringify(node.displayName)}`);
			if (node.inputs?.replace(/\s/g, '') !== '[]') wrong.push(`inputs ${node.inputs}`);
			if (wrong.length)
				fail(
					`${rel}:${node.line}: a trigger named as one needs "…Trigger" in its class, name and displayName and no inputs: ${wrong.join(', ')} (trigger-node-conventions)`,
				);
		}
	}
}

/** Every rule above on a package folder (source rules where .ts files are, shipped ones where dist/ is). */
export function checkComingRules(dir, fail) {
	checkPackageFacts(dir, fail);
	checkCodex(dir, fail);
	checkTriggers(dir, fail);
	checkItemIndex(dir, fail);
	checkGlobalsAndImports(dir, fail);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const dir = path.resolve(process.argv[2] ?? '.');
	const findings = [];
	checkComingRules(dir, (finding) => findings.push(finding));
	if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(findings));
	else for (const finding of findings) console.error(`✗ ${finding}`);
	process.exitCode = findings.length ? 1 : 0;
}
