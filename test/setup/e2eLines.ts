/**
 * The end-to-end run's n8n of each line (jest globalSetup of the e2e project): one n8n per
 * selected line with the packed package, started and signed up once, for every e2e file that asks
 * for it through n8nOfLine() (test/e2e/lineN8n.ts). Each n8n start costs 20 to 30 s a line; files
 * that need a special n8n (other environment, a restart, queue mode) start their own.
 *
 * Workers find the instances in E2E_LINE_N8N (JSON: line → folder, port, API key). A line's n8n is
 * started only when a selected file of the project that asks for it declares the line (`@lines`,
 * dev/n8n/fileLines.js: 2.x unless the file says otherwise); nothing with E2E_SHARED_N8N=0 (each
 * file then starts its own). e2eLinesStop.ts stops them. The measure project (test/measure/) shares
 * it the same way.
 */
import { join, relative, sep } from 'node:path';

import type { Config } from '@jest/types';

import { declaredLines } from '../../dev/n8n/fileLines';
import { N8nInstance, log, selectedLines, type SharedN8n } from '../../dev/n8n/harness';

/**
 * The e2e files that use the line's shared n8n (n8nOfLine, useLineN8n, useEditorOfLine): the run
 * starts it when one of them is selected. n8nOfLine fails in a file not listed here, so that the
 * list cannot fall behind the files; a file of its own n8n (`fresh`, N8nInstance) is not listed.
 */
export const SHARED_N8N_FILES = [
	'agents',
	'beyond-spec',
	'chat-failures',
	'chat-files-memory',
	'chat-hub-tools',
	'chat-model-approval',
	'chat-model-families',
	'chat-model-features',
	'chat-model-forced-tool',
	'chat-model-ordinary-answers',
	'chat-model',
	'editor-chat-memory',
	'editor-chat-model',
	'editor-chat',
	'editor-examples',
	'editor-node-search',
	'examples',
	'executions',
	'files',
	'memories',
	'rate-limits',
	'real-platform',
	'saved-workflows',
	'cold-pace',
	'interactive-first',
]
	.map((name) => `test/e2e/${name}.e2e.test.ts`)
	.concat(['chat-hub-tools', 'streaming'].map((name) => `test/measure/${name}.measure.test.ts`));

/** True when the test file at this path is one of SHARED_N8N_FILES. */
export function usesSharedN8n(testPath: string, rootDir: string): boolean {
	return SHARED_N8N_FILES.includes(relative(rootDir, testPath).split(sep).join('/'));
}

/** The instances of this run, for e2eLinesStop.ts (globalSetup and globalTeardown share globals). */
export const RUNNING = Symbol.for('agent-platform.e2e.lines');
type WithRunning = typeof globalThis & { [RUNNING]?: N8nInstance[] };

/**
 * The files of this project (e2e or measure) and run (its path patterns applied) that use the
 * line's shared n8n.
 */
export function filesAsking(
	globalConfig: Config.GlobalConfig,
	projectConfig: Config.ProjectConfig,
): string[] {
	const pattern = globalConfig.testPathPattern
		? new RegExp(globalConfig.testPathPattern, 'i')
		: undefined;
	const suffix = `.${projectConfig.displayName?.name ?? 'e2e'}.test.ts`;
	return SHARED_N8N_FILES.filter((file) => file.endsWith(suffix))
		.map((file) => join(projectConfig.rootDir, file))
		.filter((file) => !pattern || pattern.test(file));
}

export default async function startLines(
	globalConfig: Config.GlobalConfig,
	projectConfig: Config.ProjectConfig,
): Promise<void> {
	if (process.env.E2E_SHARED_N8N === '0') return;
	const asking = filesAsking(globalConfig, projectConfig);
	const lines = selectedLines().filter((line) =>
		asking.some((file) => declaredLines(file).includes(line.line)),
	);
	if (lines.length === 0) return;
	const started = Date.now();
	const instances = await Promise.all(
		lines.map(async (line) => {
			const n8n = await N8nInstance.withPackage(line, { ownFiles: true });
			(globalThis as WithRunning)[RUNNING] = [...((globalThis as WithRunning)[RUNNING] ?? []), n8n];
			await n8n.start({ timeoutMs: 180_000 });
			await n8n.setupOwnerAndApiKey();
			return n8n;
		}),
	);
	const places: Record<string, SharedN8n> = {};
	for (const n8n of instances) places[n8n.line.line] = n8n.places;
	process.env.E2E_LINE_N8N = JSON.stringify(places);
	log(
		`the run's n8n of ${instances.map((n) => n.line.version).join(' and ')} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
}
