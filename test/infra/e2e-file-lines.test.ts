/**
 * The lines an end-to-end file runs on (dev/n8n/fileLines.js): those its header's `@lines` names,
 * 2.x without the tag; a tag naming no line or another one fails, naming the file. The committed
 * files that run on 1.x are the ones whose behaviour differs there. The part a file is in
 * (`@light`, E2E_PART): the light run of scripts/test.sh starts only a 2.x n8n, shared.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { declaredLines, inSelectedPart, isLight } from '../../dev/n8n/fileLines';
import { REPO_ROOT } from '../../dev/n8n/harness';
import { SHARED_N8N_FILES } from '../setup/e2eLines';

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

describe('the @light part', () => {
	let folder: string;
	let light: string;
	let other: string;
	const part = process.env.E2E_PART;
	beforeAll(() => {
		folder = mkdtempSync(join(tmpdir(), 'file-part-'));
		light = join(folder, 'a.e2e.test.ts');
		other = join(folder, 'b.e2e.test.ts');
		writeFileSync(light, '/**\n * Short.\n * @light (why)\n */\ntest();');
		writeFileSync(other, '/** The header. */\n/**\n * @light\n */\ntest();');
	});
	afterAll(() => {
		rmSync(folder, { recursive: true, force: true });
		if (part === undefined) delete process.env.E2E_PART;
		else process.env.E2E_PART = part;
	});

	it('a header line `@light` makes a file light; one below the header does not', () => {
		expect([isLight(light), isLight(other)]).toEqual([true, false]);
	});

	it.each([
		['light', [true, false]],
		['others', [false, true]],
		['', [true, true]],
	])('E2E_PART=%j selects %j of a light and another file', (value, selected) => {
		process.env.E2E_PART = value;
		expect([inSelectedPart(light), inSelectedPart(other)]).toEqual(selected);
	});

	it('another E2E_PART fails, saying what to write', () => {
		process.env.E2E_PART = 'tail';
		expect(() => inSelectedPart(light)).toThrow('write light, others');
	});

	it('the committed @light files run on 2.x only, on the shared n8n (the light run starts only that)', () => {
		const folder = join(REPO_ROOT, 'test', 'e2e');
		const lightFiles = readdirSync(folder)
			.filter((name) => name.endsWith('.e2e.test.ts'))
			.filter((name) => isLight(join(folder, name)));
		expect(lightFiles.length).toBeGreaterThan(0);
		for (const name of lightFiles)
			expect({
				name,
				lines: declaredLines(join(folder, name)),
				shared: SHARED_N8N_FILES.includes(`test/e2e/${name}`),
			}).toEqual({ name, lines: ['2.x'], shared: true });
	});
});
