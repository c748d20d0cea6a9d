// Fails when a module imports, directly or through others, a module that imports it back: type
// imports and re-exports count too (a type-only circle still ties files that cannot be read alone).
// Run by `npm run lint` over the folders below; prints each circle as a path of files.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['nodes', 'credentials', 'dev', 'scripts', 'test'];
const EXTENSIONS = ['.ts', '.mjs', '.js', '/index.ts', '/index.mjs', '/index.js'];
const root = process.cwd();

function sourceFiles(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
		return /\.(ts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
	});
}

/** Every relative module a file names: import (type or not), export … from, import(), require(). */
function importsOf(file) {
	const text = fs.readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const names = [];
	const visit = (node) => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			names.push(node.moduleSpecifier.text);
		} else if (
			ts.isCallExpression(node) &&
			node.arguments.length === 1 &&
			ts.isStringLiteral(node.arguments[0]) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require'))
		) {
			names.push(node.arguments[0].text);
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
			names.push(node.argument.literal.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return names
		.filter((name) => name.startsWith('.'))
		.map((name) => resolve(path.resolve(path.dirname(file), name)))
		.filter(Boolean);
}

function resolve(base) {
	if (/\.(ts|mjs|js)$/.test(base) && fs.existsSync(base)) return base;
	const stem = base.replace(/\.js$/, '');
	for (const ext of EXTENSIONS) if (fs.existsSync(stem + ext)) return stem + ext;
	return null;
}

const files = ROOTS.flatMap((dir) => sourceFiles(path.join(root, dir)));
const graph = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components: each component of more than one file (or a file that
// imports itself) is a circle.
let index = 0;
const stack = [];
const meta = new Map();
const circles = [];
function connect(file) {
	meta.set(file, { index, low: index, onStack: true });
	index++;
	stack.push(file);
	for (const next of graph.get(file) ?? []) {
		if (!graph.has(next)) continue;
		if (!meta.has(next)) {
			connect(next);
			meta.get(file).low = Math.min(meta.get(file).low, meta.get(next).low);
		} else if (meta.get(next).onStack) {
			meta.get(file).low = Math.min(meta.get(file).low, meta.get(next).index);
		}
	}
	if (meta.get(file).low !== meta.get(file).index) return;
	const component = [];
	let member;
	do {
		member = stack.pop();
		meta.get(member).onStack = false;
		component.push(member);
	} while (member !== file);
	if (component.length > 1 || graph.get(file).includes(file)) circles.push(component);
}
for (const file of graph.keys()) if (!meta.has(file)) connect(file);

const shown = (file) => path.relative(root, file);
if (circles.length === 0) {
	console.log(`import circles: none among ${graph.size} files of ${ROOTS.join('/, ')}/`);
} else {
	for (const circle of circles) {
		console.error(
			`import circle of ${circle.length} files: ${circle.map(shown).sort().join(', ')}`,
		);
	}
	console.error(
		`${circles.length} import circle(s): a module must not import one that imports it back`,
	);
	process.exitCode = 1;
}
