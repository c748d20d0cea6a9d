/**
 * The end-to-end run's n8n of each line (jest globalSetup of the e2e project): one n8n per
 * selected line with the packed package, started and signed up once, for every e2e file that asks
 * for it through n8nOfLine() (test/e2e/lineN8n.ts). Each n8n start costs 20 to 30 s a line; files
 * that need a special n8n (other environment, a restart, queue mode) start their own.
 *
 * Workers find the instances in E2E_LINE_N8N (JSON: line → folder, port, API key). Nothing is
 * started when no selected file asks for it, or with E2E_SHARED_N8N=0 (each file then starts its
 * own, as before). e2eLinesStop.ts stops them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Config } from '@jest/types';
import fg from 'fast-glob';

import { N8nInstance, log, selectedLines, type SharedN8n } from '../../dev/n8n/harness';

/** What asks for the line's n8n: n8nOfLine, or a helper named like it (useEditorOfLine). */
const ASKS = /\b[a-z][A-Za-z0-9]*OfLine\(/;

/** A test file's text and that of the modules beside it that it imports (where its suite may be). */
function suiteText(file: string): string {
	const text = readFileSync(file, 'utf8');
	const beside = [...text.matchAll(/from '\.\/([^']+)'/g)].map(([, name]) =>
		join(dirname(file), `${name}.ts`),
	);
	return [
		text,
		...beside.filter((path) => existsSync(path)).map((path) => readFileSync(path, 'utf8')),
	].join('\n');
}

/** The instances of this run, for e2eLinesStop.ts (globalSetup and globalTeardown share globals). */
export const RUNNING = Symbol.for('agent-platform.e2e.lines');
type WithRunning = typeof globalThis & { [RUNNING]?: N8nInstance[] };

/** The e2e files of this run (its path patterns applied) that ask for the line's n8n. */
export function filesAsking(globalConfig: Config.GlobalConfig, rootDir: string): string[] {
	const pattern = globalConfig.testPathPattern
		? new RegExp(globalConfig.testPathPattern, 'i')
		: undefined;
	return fg
		.sync('test/e2e/**/*.e2e.test.ts', { cwd: rootDir, absolute: true })
		.filter((file) => !pattern || pattern.test(file))
		.filter((file) => ASKS.test(suiteText(file)));
}

export default async function startLines(
	globalConfig: Config.GlobalConfig,
	projectConfig: Config.ProjectConfig,
): Promise<void> {
	if (process.env.E2E_SHARED_N8N === '0') return;
	if (filesAsking(globalConfig, projectConfig.rootDir).length === 0) return;
	const started = Date.now();
	const instances = await Promise.all(
		selectedLines().map(async (line) => {
			const n8n = await N8nInstance.withPackage(line);
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
