/**
 * The file-size rule of the project's lint (scripts/file-sizes.mjs, run by `npm run lint`): in a
 * temporary tree, a file one line over its folder's limit fails the rule, which names it with its
 * length; a file at its limit, and files outside the folders it covers, pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/file-sizes.mjs');

const linesOf = (count: number) =>
	Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

/** Runs the rule in a tree holding `files` (path → line count). */
function runIn(files: Record<string, number>): { status: number | null; output: string } {
	const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'file-sizes-'));
	try {
		for (const [file, count] of Object.entries(files)) {
			fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
			fs.writeFileSync(path.join(tree, file), linesOf(count));
		}
		const run = spawnSync(process.execPath, [SCRIPT], { cwd: tree, encoding: 'utf8' });
		return { status: run.status, output: run.stdout + run.stderr };
	} finally {
		fs.rmSync(tree, { recursive: true, force: true });
	}
}

describe("the project's lint holds each file to its folder's size", () => {
	it('fails naming each file over its limit, with its length', () => {
		const { status, output } = runIn({
			'nodes/AgentPlatform/helpers/planted.ts': 301,
			'credentials/Planted.credentials.ts': 320,
			'dev/emulator/planted.ts': 401,
			'test/unit/planted.test.ts': 450,
			'README.md': 421,
			'nodes/AgentPlatform/helpers/atLimit.ts': 300,
			'test/unit/atLimit.test.ts': 400,
		});
		expect(status).toBe(1);
		expect(output).toContain('nodes/AgentPlatform/helpers/planted.ts: 301 lines, over the 300');
		expect(output).toContain('credentials/Planted.credentials.ts: 320 lines, over the 300');
		expect(output).toContain('dev/emulator/planted.ts: 401 lines, over the 400');
		expect(output).toContain('test/unit/planted.test.ts: 450 lines, over the 400');
		expect(output).toContain('README.md: 421 lines, over the 420');
		expect(output).toContain('5 file(s) too long');
		expect(output).not.toContain('atLimit');
	});

	it('passes files at their limit, and files outside the folders it holds', () => {
		const { status, output } = runIn({
			'nodes/AgentPlatform/transport/atLimit.ts': 300,
			'dev/n8n/atLimit.ts': 400,
			'README.md': 420,
			'docs/long.md': 900,
			'scripts/long.mjs': 900,
			'nodes/AgentPlatform/long.json': 900,
		});
		expect(output).toContain('file sizes: none over its limit among 3 files');
		expect(status).toBe(0);
	});
});
