/**
 * The lines an end-to-end file runs on (dev/n8n/fileLines.js): those its header's `@lines` names,
 * 2.x without the tag; a tag naming no line or another one fails, naming the file. The committed
 * files that run on 1.x are the ones whose behaviour differs there.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { declaredLines } from '../../dev/n8n/fileLines';
import { REPO_ROOT } from '../../dev/n8n/harness';

describe('declaredLines', () => {
	let folder: string;
	beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'file-lines-'))));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	const file = (text: string) => {
		const path = join(folder, `${readdirSync(folder).length}.e2e.test.ts`);
		writeFileSync(path, text);
		return path;
	};

	it.each([
		[
			'/**\n * A file on both lines.\n * @lines 1.x 2.x (why: its 1.x path)\n */\ntest();',
			['1.x', '2.x'],
		],
		['/**\n * @lines 1.x\n */', ['1.x']],
		['/**\n * A file of 2.x only: no tag.\n */\ntest();', ['2.x']],
		// a tag below the header is not the header's
		['/** The header. */\n/**\n * @lines 1.x\n */', ['2.x']],
		['// no header\n// @lines 1.x', ['2.x']],
	])('%j runs on %j', (text, lines) => {
		expect(declaredLines(file(text))).toEqual(lines);
	});

	it.each(['/**\n * @lines 3.x\n */', '/**\n * @lines\n */', '/**\n * @lines (why)\n */'])(
		'%j fails, naming the file',
		(text) => {
			const path = file(text);
			expect(() => declaredLines(path)).toThrow(path);
		},
	);
});

it('the end-to-end files on n8n 1.x are those whose behaviour differs there', () => {
	const folder = join(REPO_ROOT, 'test', 'e2e');
	const onOne = readdirSync(folder)
		.filter((name) => name.endsWith('.e2e.test.ts'))
		.filter((name) => declaredLines(join(folder, name)).includes('1.x'));
	// loading, the action node, the trigger, the chat model's 1.x path (the editor's files may add theirs)
	expect(onOne).toEqual(
		expect.arrayContaining([
			'chat-model.e2e.test.ts',
			'executions.e2e.test.ts',
			'files.e2e.test.ts',
			'saved-workflows.e2e.test.ts',
			'trigger.e2e.test.ts',
		]),
	);
	expect(onOne.length).toBeLessThan(readdirSync(folder).length / 3);
});
