/** Which example workflows of examples/ npm start imports into its n8n, and which changed since. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { exampleNames, loadExample, type WorkflowFixture } from '../n8n/examples';
import type { N8nInstance } from '../n8n/instance';

/** In n8n's user folder: the version of each example (by id) npm start imported there. */
export const IMPORTED_RECORD = 'agent-platform-examples.json';
/** Noted for an example found in n8n that an npm start from before the record imported. */
export const UNKNOWN_VERSION = 'imported before versions were noted';

/**
 * All of them into a new n8n; later, only those whose id n8n does not have yet (so that an example
 * added to examples/ appears, and edits made in n8n stay).
 */
export async function missingExamples(
	n8n: N8nInstance,
	firstRun: boolean,
): Promise<WorkflowFixture[]> {
	const all = exampleNames().map(loadExample);
	let known = new Set<string>();
	if (!firstRun) {
		const { stdout } = await n8n.cli(['list:workflow', '--onlyId']);
		known = new Set(stdout.split('\n').map((l) => l.trim()));
	}
	return all.filter((workflow) => !known.has(workflow.id));
}

/** An example's version: a digest of the workflow as npm start imports it. */
export function exampleVersion(workflow: WorkflowFixture): string {
	return createHash('sha256').update(JSON.stringify(workflow)).digest('hex').slice(0, 16);
}

function readRecord(userFolder: string): Record<string, string> {
	const file = join(userFolder, IMPORTED_RECORD);
	if (!existsSync(file)) return {};
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
	} catch {
		return {};
	}
}

/** Notes the versions just imported (and, once, those n8n holds from before the record). */
export function noteImported(
	userFolder: string,
	imported: WorkflowFixture[],
	alreadyThere: WorkflowFixture[] = [],
): void {
	const record = readRecord(userFolder);
	for (const workflow of alreadyThere) record[workflow.id] ??= UNKNOWN_VERSION;
	for (const workflow of imported) record[workflow.id] = exampleVersion(workflow);
	writeFileSync(join(userFolder, IMPORTED_RECORD), `${JSON.stringify(record, null, '\t')}\n`);
}

/**
 * The examples n8n holds (`present`) whose file in examples/ is no longer the one npm start
 * imported, or that an npm start from before the record imported (named once). n8n's copy is kept
 * (a person's edits there are theirs): npm start names them and how to get the current one.
 */
export function changedSinceImport(
	userFolder: string,
	present: WorkflowFixture[],
): WorkflowFixture[] {
	const record = readRecord(userFolder);
	return present.filter((workflow) => {
		const noted = record[workflow.id];
		// one of unknown version is named once, when it is first seen
		return noted === undefined || (noted !== UNKNOWN_VERSION && noted !== exampleVersion(workflow));
	});
}

/** The examples n8n already holds: all of examples/ but the `missing` ones. */
export function presentExamples(missing: WorkflowFixture[]): WorkflowFixture[] {
	const ids = new Set(missing.map((workflow) => workflow.id));
	return exampleNames()
		.map(loadExample)
		.filter((workflow) => !ids.has(workflow.id));
}
