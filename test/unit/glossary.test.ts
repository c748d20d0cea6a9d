/**
 * The glossary cannot go stale: every code name docs/design.md's glossary cites in backticks (a
 * file path, an identifier, `Class.member`) exists in the source tree (nodes/, credentials/, dev/,
 * scripts/), read with TypeScript's parser: a member must be declared by the class, interface or
 * object it is cited with, not merely appear near it. The glossary lists each word once. A copy of
 * the tree with a planted entry, or with a cited file gone, shows that a stale name fails. And a
 * word keeps one sense: the senses it had besides, retired per area (RETIRED), occur nowhere in the
 * source, the tests or the docs; a planted file shows that a second sense fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const REPO = path.resolve(__dirname, '../..');
const SOURCE_ROOTS = ['nodes', 'credentials', 'dev', 'scripts'];
const PACKAGE = 'nodes/AgentPlatform';

function glossaryOf(root: string): string {
	const design = fs.readFileSync(path.join(root, 'docs/design.md'), 'utf8');
	const start = design.indexOf('## Glossary');
	const end = design.indexOf('\n## ', start + 1);
	if (start < 0) throw new Error('docs/design.md has no "## Glossary" section');
	return design.slice(start, end < 0 ? undefined : end);
}

/** The words the glossary defines: each entry's bold head(s) before its colon. */
function definedWords(glossary: string): string[] {
	return [...glossary.matchAll(/^(\*\*[^\n]*?\*\*[^:\n]*):/gm)].flatMap((entry) =>
		[...entry[1].matchAll(/\*\*([^*]+)\*\*/g)].map((bold) => bold[1].toLowerCase()),
	);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MEMBER = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/;
const isPath = (name: string) => name.includes('/') || /\.(ts|mjs|js|md|json|sh)$/.test(name);

/** The code names cited in backticks (a span may break across lines); other text is not checked. */
function citedNames(glossary: string): string[] {
	const cited = [...glossary.matchAll(/`([^`]+)`/g)].map((match) => match[1].replace(/\(\)$/, ''));
	return [
		...new Set(cited.filter((name) => isPath(name) || MEMBER.test(name) || IDENTIFIER.test(name))),
	];
}

function filesUnder(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
		return [full];
	});
}

interface SourceIndex {
	files: string[];
	/** Every identifier and string literal of the source. */
	words: Set<string>;
	/** Declared classes, interfaces, type literals and object constants: their members' names. */
	members: Map<string, Set<string>>;
}

function memberNames(node: ts.Node | undefined): string[] {
	if (!node) return [];
	if (
		ts.isParenthesizedExpression(node) ||
		ts.isAsExpression(node) ||
		ts.isSatisfiesExpression(node)
	)
		return memberNames(node.expression);
	const named = (members: ts.NodeArray<ts.Node>) =>
		members.flatMap((member) => {
			const name = (member as { name?: ts.Node }).name;
			return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? [name.text] : [];
		});
	if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) return named(node.members);
	if (ts.isTypeLiteralNode(node)) return named(node.members);
	if (ts.isObjectLiteralExpression(node)) return named(node.properties);
	if (ts.isEnumDeclaration(node)) return named(node.members);
	return [];
}

function indexSource(root: string): SourceIndex {
	const files = SOURCE_ROOTS.flatMap((dir) => filesUnder(path.join(root, dir)));
	const words = new Set<string>();
	const members = new Map<string, Set<string>>();
	const declare = (name: string, names: string[]) => {
		const known = members.get(name) ?? new Set<string>();
		for (const member of names) known.add(member);
		members.set(name, known);
	};
	for (const file of files) {
		const text = fs.readFileSync(file, 'utf8');
		if (!/\.(ts|mjs|js)$/.test(file)) {
			for (const word of text.match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(word);
			continue;
		}
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
		const visit = (node: ts.Node) => {
			if (ts.isIdentifier(node) || ts.isStringLiteralLike(node)) words.add(node.text);
			if (
				(ts.isClassDeclaration(node) ||
					ts.isInterfaceDeclaration(node) ||
					ts.isEnumDeclaration(node)) &&
				node.name
			)
				declare(node.name.text, memberNames(node));
			if (ts.isTypeAliasDeclaration(node)) declare(node.name.text, memberNames(node.type));
			if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name))
				declare(node.name.text, memberNames(node.initializer));
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return { files, words, members };
}

/** The cited names that do not exist in the tree at `root`, each with why. */
function staleNames(root: string): string[] {
	const source = indexSource(root);
	const baseNames = new Set(
		[...source.files, ...filesUnder(path.join(root, 'docs'))].map((file) => path.basename(file)),
	);
	return citedNames(glossaryOf(root)).flatMap((name) => {
		if (isPath(name)) {
			const places = [name, path.join(PACKAGE, name)].map((place) => path.join(root, place));
			const found = name.includes('/')
				? places.some((place) => fs.existsSync(place))
				: baseNames.has(name);
			return found ? [] : [`${name}: no such file`];
		}
		const member = MEMBER.exec(name);
		if (member) {
			const [, owner, field] = member;
			const declared = source.members.get(owner);
			if (!declared) return [`${name}: no class, interface or object ${owner}`];
			return declared.has(field) ? [] : [`${name}: ${owner} declares no ${field}`];
		}
		return source.words.has(name) ? [] : [`${name}: not in the source`];
	});
}

/**
 * The senses each word of the glossary had besides its own, retired: the words or phrases that
 * carried them, looked for in the source, the tests and the docs.
 */
const RETIRED: Array<{ word: string; sense: string; pattern: RegExp }> = [
	{
		word: 'held',
		sense: 'text or reasoning not shown yet (pending)',
		pattern: /\b(?:held|holds?|holding) back\b|\bheldToEnd\b/i,
	},
	{
		word: 'kept',
		sense: 'text not shown yet, reasoning out of the answer',
		pattern: /\b(?:kept|keeps?|keeping) (?:back|out)\b/i,
	},
	{ word: 'settled', sense: 'the settings read', pattern: /\bsettleModelSettings\b/ },
	{
		word: 'run',
		sense: "the emulator's other names for a run",
		pattern: /\bStoredResponse\b|\bexecutionCount\b|dev\/emulator\/executions\.ts/,
	},
	{
		word: 'reply',
		sense: 'a reply asked for in words the emulator reads in a question',
		pattern: /\[(?:model|family): |--model-family|\bmodelFamilies\.ts/,
	},
];
/** Where the retired senses are looked for (all but this file, which names them). */
const WORDED = ['nodes', 'credentials', 'dev', 'scripts', 'test', 'docs', 'README.md'];
const NOT_YET = ['test/unit/glossary.test.ts'];

/** Each line of the tree at `root` that uses a word in a retired sense: `file:line: word (sense)`. */
function secondSenses(root: string): string[] {
	const files = WORDED.flatMap((place) => {
		const full = path.join(root, place);
		if (!fs.existsSync(full)) return [];
		return fs.statSync(full).isDirectory() ? filesUnder(full) : [full];
	});
	return files.flatMap((file) => {
		const name = path.relative(root, file);
		if (!/\.(ts|mjs|js|md|sh)$/.test(name) || NOT_YET.some((place) => name.startsWith(place)))
			return [];
		return fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.flatMap((line, at) =>
				RETIRED.filter((retired) => retired.pattern.test(line)).map(
					(retired) => `${name}:${at + 1}: ${retired.word} (${retired.sense})`,
				),
			);
	});
}

/** A copy of the glossary and the tree to plant in (the source and tests linked, not copied). */
function treeCopy(change: (copy: string) => void): string {
	const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'glossary-'));
	fs.mkdirSync(path.join(copy, 'docs'));
	fs.copyFileSync(path.join(REPO, 'docs/design.md'), path.join(copy, 'docs/design.md'));
	for (const dir of [...SOURCE_ROOTS, 'test'])
		fs.symlinkSync(path.join(REPO, dir), path.join(copy, dir));
	change(copy);
	return copy;
}

describe("docs/design.md's glossary", () => {
	const copies: string[] = [];
	afterAll(() => {
		for (const copy of copies) fs.rmSync(copy, { recursive: true, force: true });
	});

	it('cites only code names that exist in the source tree', () => {
		const cited = citedNames(glossaryOf(REPO));
		// the check has something to check: files, identifiers and members of classes
		expect(cited.length).toBeGreaterThan(30);
		expect(cited).toEqual(
			expect.arrayContaining(['Pace.heldForMs', 'PaceHeldError', 'SessionRead.unseen']),
		);
		expect(staleNames(REPO)).toEqual([]);
	});

	it('defines each word once', () => {
		const words = definedWords(glossaryOf(REPO));
		expect(words).toEqual(
			expect.arrayContaining(['pace', 'queue', 'rotation', 'held', 'turn', 'line']),
		);
		expect(words.filter((word, index) => words.indexOf(word) !== index)).toEqual([]);
	});

	it('fails on an entry citing names that are gone, and only on those', () => {
		const copy = treeCopy((at) => {
			const planted = [
				'',
				'**stale**: a planted entry (`ChatSession.unseen`, `TurnQueue.turn`, `RUN_HOLD`,',
				'`transport/pace/executionLine.ts`, `turnQueue.ts`; still there: `Pace.take`, `ClassQueue`,',
				'`transport/pace/classQueue.ts`, `gate.ts`).',
				'',
			].join('\n');
			const design = path.join(at, 'docs/design.md');
			const text = fs.readFileSync(design, 'utf8');
			fs.writeFileSync(design, text.replace('\n## Decisions', `${planted}\n## Decisions`));
		});
		copies.push(copy);
		expect(staleNames(copy)).toEqual([
			'ChatSession.unseen: ChatSession declares no unseen',
			'TurnQueue.turn: no class, interface or object TurnQueue',
			'RUN_HOLD: not in the source',
			'transport/pace/executionLine.ts: no such file',
			'turnQueue.ts: no such file',
		]);
	});

	it('fails when a file it cites is renamed in the source', () => {
		const copy = treeCopy((at) => {
			const pace = path.join(at, 'nodes');
			fs.unlinkSync(pace);
			fs.cpSync(path.join(REPO, 'nodes'), pace, { recursive: true });
			const from = path.join(pace, 'AgentPlatform/transport/pace/classQueue.ts');
			const text = fs.readFileSync(from, 'utf8').replace(/\bClassQueue\b/g, 'RenamedQueue');
			fs.unlinkSync(from);
			fs.writeFileSync(path.join(pace, 'AgentPlatform/transport/pace/renamedQueue.ts'), text);
			const queue = path.join(pace, 'AgentPlatform/transport/pace/paceQueue.ts');
			const pq = fs.readFileSync(queue, 'utf8').replace(/\bClassQueue\b/g, 'RenamedQueue');
			fs.writeFileSync(queue, pq);
		});
		copies.push(copy);
		expect(staleNames(copy)).toEqual([
			'ClassQueue: not in the source',
			'transport/pace/classQueue.ts: no such file',
		]);
	});

	it('gives each word one sense: none of the retired senses is used', () => {
		expect(secondSenses(REPO)).toEqual([]);
	});

	it('fails on a word used in a second sense, and only there', () => {
		const copy = treeCopy((at) => {
			fs.unlinkSync(path.join(at, 'scripts'));
			fs.mkdirSync(path.join(at, 'scripts'));
			const planted = [
				'// the stream holds back the reasoning until it ends',
				'const runs = emu.executionCount;',
				'// the key is held after a 429; the reply is kept',
			].join('\n');
			fs.writeFileSync(path.join(at, 'scripts/planted.ts'), planted);
		});
		copies.push(copy);
		expect(secondSenses(copy)).toEqual([
			'scripts/planted.ts:1: held (text or reasoning not shown yet (pending))',
			"scripts/planted.ts:2: run (the emulator's other names for a run)",
		]);
	});
});
