// Fails when a file is longer than its folder allows: a long file does more than one job, and the
// README is a user's page. Run by `npm run lint` from the repository's root; names each file over.
import fs from 'node:fs';
import path from 'node:path';

/** Where a limit holds, what it counts, and the most lines a file there may have. */
const LIMITS = [
	{ roots: ['nodes', 'credentials'], match: /\.ts$/, most: 300 },
	{ roots: ['dev', 'test'], match: /\.ts$/, most: 400 },
	{ roots: ['README.md'], match: /^README\.md$/, most: 420 },
];
const root = process.cwd();

function filesUnder(entry, match) {
	const full = path.join(root, entry);
	if (!fs.existsSync(full)) return [];
	if (!fs.statSync(full).isDirectory()) return match.test(path.basename(entry)) ? [entry] : [];
	return fs.readdirSync(full, { withFileTypes: true }).flatMap((child) => {
		if (child.name === 'node_modules') return [];
		const relative = path.join(entry, child.name);
		if (child.isDirectory()) return filesUnder(relative, match);
		return match.test(child.name) ? [relative] : [];
	});
}

/** Lines as an editor numbers them: a last line without its newline counts too. */
function lineCount(file) {
	const text = fs.readFileSync(path.join(root, file), 'utf8');
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const over = [];
let checked = 0;
for (const { roots, match, most } of LIMITS) {
	for (const file of roots.flatMap((entry) => filesUnder(entry, match))) {
		checked++;
		const lines = lineCount(file);
		if (lines > most) over.push({ file, lines, most });
	}
}

if (over.length === 0) {
	console.log(`file sizes: none over its limit among ${checked} files`);
} else {
	for (const { file, lines, most } of over)
		console.error(`${file}: ${lines} lines, over the ${most} its folder allows`);
	console.error(
		`${over.length} file(s) too long: split by job (nodes/, credentials/ 300 lines; dev/, test/ 400; README.md 420, the rest in docs/)`,
	);
	process.exitCode = 1;
}
