/**
 * The link rule of the project's lint (scripts/doc-links.mjs, run by `npm run lint`): in a
 * temporary tree, a Markdown link to a file that is not there, or to a heading its target lacks,
 * fails the rule, which names the file and the link; links that resolve, web addresses and links
 * inside code blocks pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/doc-links.mjs');

/** Runs the rule in a tree holding `files` (path → text). */
function runIn(files: Record<string, string>): { status: number | null; output: string } {
	const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-links-'));
	try {
		for (const [file, text] of Object.entries(files)) {
			fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
			fs.writeFileSync(path.join(tree, file), text);
		}
		const run = spawnSync(process.execPath, [SCRIPT], { cwd: tree, encoding: 'utf8' });
		return { status: run.status, output: run.stdout + run.stderr };
	} finally {
		fs.rmSync(tree, { recursive: true, force: true });
	}
}

const RATE_LIMITS = [
	'# Rate limits',
	'## Interactive first: a person waiting never waits behind bulk paging',
	'## `npm run bench` (the rates)',
	'## Queue mode',
	'## Queue mode',
	'',
].join('\n');

describe("the project's lint keeps the docs' links working", () => {
	it('fails naming each link to a missing file or heading', () => {
		const { status, output } = runIn({
			'README.md': [
				'See [the pace](docs/rate-limits.md#interactive-first) and [design](docs/design.md).',
				'[Trying it](docs/trying-locally.md), [a section](#no-such-section).',
				'',
			].join('\n'),
			'docs/rate-limits.md': RATE_LIMITS,
		});
		expect(status).toBe(1);
		expect(output).toContain('README.md: docs/rate-limits.md#interactive-first (no such heading)');
		expect(output).toContain('README.md: docs/design.md (no such file)');
		expect(output).toContain('README.md: docs/trying-locally.md (no such file)');
		expect(output).toContain('README.md: #no-such-section (no such heading)');
		expect(output).toContain('4 broken link(s)');
	});

	it("passes links that resolve, GitHub's anchors, web addresses and code blocks", () => {
		const { status, output } = runIn({
			'README.md': [
				'## Quick start',
				'[start](#quick-start), [rates](docs/rate-limits.md#npm-run-bench-the-rates),',
				'[first](docs/rate-limits.md#interactive-first-a-person-waiting-never-waits-behind-bulk-paging),',
				'[again](docs/rate-limits.md#queue-mode-1), [n8n](https://docs.n8n.io/no/such#page),',
				'![shot](docs/shot.png) [the folder](docs/)',
				'```',
				'[not a link](nowhere.md)',
				'```',
				'',
			].join('\n'),
			'docs/rate-limits.md': RATE_LIMITS,
			'docs/shot.png': 'png',
			'docs/other.md': '[back](../README.md#quick-start)\n',
		});
		expect(output).toContain('doc links: every relative link of 3 Markdown files resolves');
		expect(status).toBe(0);
	});
});
