// Fails when a Markdown file of the repository links to a file that is not there, or to a heading
// its target does not have (GitHub's anchors). Run by `npm run lint` from the repository's root;
// names each broken link with its file. Web addresses are not fetched.
import fs from 'node:fs';
import path from 'node:path';

const SKIPPED = new Set(['node_modules', '.git', 'dist', '.tmp']);
const root = process.cwd();

function markdownFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (SKIPPED.has(entry.name)) return [];
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return markdownFiles(full);
		return entry.name.endsWith('.md') ? [full] : [];
	});
}

/** The text outside fenced code blocks, where links are links. */
const prose = (text) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(file) {
	const anchors = new Set();
	const count = new Map();
	for (const [, heading] of prose(fs.readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
		const slug = heading
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}_\- ]/gu, '')
			.replace(/ /g, '-');
		const seen = count.get(slug) ?? 0;
		count.set(slug, seen + 1);
		anchors.add(seen ? `${slug}-${seen}` : slug);
	}
	return anchors;
}

const broken = [];
const files = markdownFiles(root);
for (const file of files) {
	for (const [, link] of prose(fs.readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^[a-z]+:/i.test(link)) continue;
		const [target, anchor] = link.split('#');
		const resolved = target ? path.resolve(path.dirname(file), target) : file;
		const shown = `${path.relative(root, file)}: ${link}`;
		if (!fs.existsSync(resolved)) broken.push(`${shown} (no such file)`);
		else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
			broken.push(`${shown} (no such heading)`);
	}
}

if (broken.length === 0) {
	console.log(`doc links: every relative link of ${files.length} Markdown files resolves`);
} else {
	for (const link of broken) console.error(link);
	console.error(`${broken.length} broken link(s) in the Markdown files`);
	process.exitCode = 1;
}
