/**
 * The project's shell scripts that run with `set -o pipefail` end no pipeline in a reader that
 * leaves before its input ends (`grep -q`, `head`) where the pipeline's status decides anything.
 * Bash's manual: with pipefail, "the return value of a pipeline is the value of the last
 * (rightmost) command to exit with a non-zero status"; a writer still writing when its reader has
 * left is killed by SIGPIPE (status 141). Bash's `printf '%s\n' a b c` writes a line at a time, so
 * `printf … | grep -q` fails now and then on a busy machine although grep found its line: the
 * prune of dev/n8n/install-n8n.sh removed the current Node 24 install that way in a CI run (its
 * check now loops over the names). A `head` is allowed where `|| true` follows it: its output is
 * what counts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The committed shell scripts that set pipefail. */
function pipefailScripts(): string[] {
	const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
	return files
		.filter((f) => /\.sh$/.test(f) || f === '.ci/run')
		.filter((f) => /set -[a-z]*o pipefail/.test(readFileSync(join(ROOT, f), 'utf8')));
}

/** The lines of `text` (comments left out) whose pipeline ends early in a way its status reads. */
function earlyReaders(text: string): string[] {
	return text
		.split('\n')
		.map((line) => line.replace(/^\s*#.*$/, ''))
		.filter(
			(line) =>
				/\|\s*grep\s+-[a-zA-Z]*q/.test(line) ||
				(/\|\s*head\b/.test(line) && !/\|\s*head\b[^|]*\|\|\s*true/.test(line)),
		);
}

describe('shell pipelines under pipefail', () => {
	it('the rule reads the pipelines it is about (cases written by hand)', () => {
		expect(earlyReaders(`if printf '%s\\n' "\${keep[@]}" | grep -qxF "$name"; then`)).toHaveLength(
			1,
		);
		expect(earlyReaders('x="$(ls | grep -q a)"')).toHaveLength(1);
		expect(earlyReaders('missing="$(sed -n p "$log" | head -n 1)"')).toHaveLength(1);
		expect(earlyReaders('missing="$(sed -n p "$log" | head -n 1 || true)"')).toEqual([]);
		expect(earlyReaders('[ "$(echo "$found" | grep -c .)" = 1 ]')).toEqual([]);
		expect(earlyReaders('# printf | grep -q in a comment')).toEqual([]);
	});

	it('the scripts that set pipefail have none', () => {
		const scripts = pipefailScripts();
		expect(scripts).toEqual(expect.arrayContaining(['.ci/run', 'dev/n8n/install-n8n.sh']));
		const found = scripts.flatMap((f) =>
			earlyReaders(readFileSync(join(ROOT, f), 'utf8')).map((line) => `${f}: ${line.trim()}`),
		);
		expect(found).toEqual([]);
	});
});
