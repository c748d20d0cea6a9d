/**
 * n8n's next rules on the code itself (scripts/coming-rules.mjs holds the rest and runs them all):
 * errors made where an item index is in scope carry it (node-operation-error-itemindex), and the
 * shipped JavaScript uses no restricted global and loads no module outside n8n's allowed ones
 * (no-restricted-globals, no-restricted-imports).
 */
import fs from 'node:fs';
import path from 'node:path';
import glob from 'fast-glob';
import ts from 'typescript';

export const SDK = '@n8n/ai-node-sdk';

/** A file's syntax tree, and a node's line in it: shared with coming-rules.mjs. */
export const parse = (file) =>
	ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
export const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

/** Modules a node may load at run time (no-restricted-imports' list, and the AI node SDK). */
const ALLOWED_MODULES = [
	'n8n-workflow',
	'lodash',
	'moment',
	'p-limit',
	'luxon',
	'zod',
	'crypto',
	'node:crypto',
	SDK,
];
const RESTRICTED_GLOBALS = [
	'process',
	'global',
	'globalThis',
	'__dirname',
	'__filename',
	'setTimeout',
	'setInterval',
	'setImmediate',
	'clearTimeout',
	'clearInterval',
	'clearImmediate',
];

/** The item index a loop over `this.getInputData()` (or its items) walks, if the node is one. */
function loopIndex(node, sf, itemsNames) {
	// `items`, `items.length` or `this.getInputData()` itself
	const over = (expr) => {
		const text = expr?.getText(sf).replace(/\.length$/, '');
		return text !== undefined && (/getInputData\(\)$/.test(text) || itemsNames.has(text));
	};
	if (ts.isForStatement(node) && node.condition && over(node.condition.right ?? node.condition)) {
		const declaration = node.initializer?.declarations?.[0];
		return declaration?.name.getText(sf);
	}
	if (ts.isForOfStatement(node) && over(node.expression)) return 'itemIndex';
	return undefined;
}

/** Errors made where an item index is in scope carry it ({ itemIndex }). */
export function checkItemIndex(dir, fail) {
	for (const rel of glob.sync('nodes/**/*.ts', { cwd: dir, ignore: ['**/*.d.ts'] })) {
		const sf = parse(path.join(dir, rel));
		const itemsNames = new Set();
		const visit = (node, inScope) => {
			if (
				ts.isVariableDeclaration(node) &&
				node.initializer &&
				/getInputData\(\)$/.test(node.initializer.getText(sf))
			)
				itemsNames.add(node.name.getText(sf));
			let scope = inScope;
			if (
				ts.isFunctionLike(node) &&
				node.parameters?.some((p) => p.name.getText(sf) === 'itemIndex')
			)
				scope = true;
			if (loopIndex(node, sf, itemsNames)) scope = true;
			if (
				scope &&
				ts.isNewExpression(node) &&
				['NodeOperationError', 'NodeApiError'].includes(node.expression.getText(sf))
			) {
				const options = node.arguments?.[2];
				if (!options || !/\bitemIndex\b/.test(options.getText(sf)))
					fail(
						`${rel}:${lineOf(sf, node)}: ${node.expression.getText(sf)} made with an item index in scope does not carry it ({ itemIndex }) (node-operation-error-itemindex)`,
					);
			}
			ts.forEachChild(node, (child) => visit(child, scope));
		};
		visit(sf, false);
	}
}

/** Whether an identifier is a reference to a global of that name (not a property, key or local). */
function isGlobalReference(id, declared) {
	const parent = id.parent;
	if (declared.has(id.text)) return false;
	if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
	if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === id)
		return false;
	if (ts.isPropertyDeclaration(parent) && parent.name === id) return false;
	return true;
}

/** The shipped JavaScript: no restricted global, no require or import outside the allowed modules. */
export function checkGlobalsAndImports(dir, fail) {
	for (const rel of glob.sync('dist/**/*.js', { cwd: dir })) {
		const sf = parse(path.join(dir, rel));
		const declared = new Set();
		const collect = (node) => {
			if (
				(ts.isVariableDeclaration(node) ||
					ts.isFunctionDeclaration(node) ||
					ts.isParameter(node) ||
					ts.isClassDeclaration(node)) &&
				node.name &&
				ts.isIdentifier(node.name)
			)
				declared.add(node.name.text);
			ts.forEachChild(node, collect);
		};
		collect(sf);
		const visit = (node) => {
			if (
				ts.isIdentifier(node) &&
				RESTRICTED_GLOBALS.includes(node.text) &&
				isGlobalReference(node, declared)
			)
				fail(`${rel}:${lineOf(sf, node)}: the global ${node.text} (no-restricted-globals)`);
			const required =
				ts.isCallExpression(node) &&
				(node.expression.getText(sf) === 'require' ||
					node.expression.kind === ts.SyntaxKind.ImportKeyword)
					? node.arguments[0]
					: ts.isImportDeclaration(node)
						? node.moduleSpecifier
						: undefined;
			if (required) {
				const name = ts.isStringLiteralLike(required) ? required.text : required.getText(sf);
				if (
					!name.startsWith('.') &&
					!ALLOWED_MODULES.includes(name.replace(/\/package\.json$/, ''))
				)
					fail(
						`${rel}:${lineOf(sf, node)}: loads ${name}, outside n8n's allowed modules (no-restricted-imports)`,
					);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
}
