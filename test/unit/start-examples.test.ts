/**
 * npm start's note of the examples it imported (dev/start/examples.ts): n8n keeps its copy of an
 * example (a person's edits there are theirs), and npm start names those whose file in examples/
 * changed since it imported them, so that a changed example (e.g. a Chat Trigger moved to a
 * version with Streaming) is not silently missed; those imported by an npm start from before the
 * note are named once. In a temporary user folder, with the real examples.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	IMPORTED_RECORD,
	changedSinceImport,
	noteImported,
	presentExamples,
} from '../../dev/start/examples';
import { exampleNames, loadExample } from '../../dev/n8n/examples';

let folder: string;
beforeEach(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), 'start-examples-'))));
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

const all = () => exampleNames().map(loadExample);
const names = (workflows: Array<{ name: string }>) => workflows.map((w) => w.name);

it('examples imported as they are now are not named', () => {
	noteImported(folder, all());
	expect(changedSinceImport(folder, all())).toEqual([]);
	expect(fs.existsSync(path.join(folder, IMPORTED_RECORD))).toBe(true);
});

it('an example whose file changed since it was imported is named, each start, until replaced', () => {
	const [first, ...rest] = all();
	const before = { ...first, nodes: first.nodes.slice(1) };
	noteImported(folder, [before, ...rest]);
	expect(names(changedSinceImport(folder, all()))).toEqual([first.name]);
	expect(names(changedSinceImport(folder, all()))).toEqual([first.name]);
	// deleted in n8n and imported again by the next start: current
	noteImported(folder, [first], rest);
	expect(changedSinceImport(folder, all())).toEqual([]);
});

it('examples imported by an npm start from before the note are named once', () => {
	const present = all();
	expect(changedSinceImport(folder, present)).toHaveLength(present.length);
	noteImported(folder, [], present);
	expect(changedSinceImport(folder, present)).toEqual([]);
});

it('the examples n8n holds are all but the missing ones', () => {
	const [missing] = all();
	expect(names(presentExamples([missing]))).toEqual(names(all().slice(1)));
});
