/**
 * `npm run bench` (scripts/bench.mjs starts this with the Node flags it needs): runs the
 * performance cases of issue 6 and prints one table of figures, each a ratio against a baseline
 * measured in the same run (these machines are noisy), with its target.
 *
 *   npm run bench                                  every case (about 20-30 minutes)
 *   npm run bench -- --only paging,streaming       some cases: paging, upload, streaming, polling, items, rates, queue, chatmodel, chatreading, chatmemory
 *   npm run bench -- --runs 7 --time-scale 10      more repetitions; a slower clock for the long runs
 *   npm run bench -- --quick                       shorter variants (fewer runs, one rate, 200 items)
 *   E2E_N8N_LINES=2 npm run bench                  real n8n cases on one n8n line only
 *
 * Exit code 0 even when a target is missed: these are benchmark targets, not tests. The table says
 * which were met.
 */
import { writeFileSync } from 'node:fs';

import type { BenchOptions, BenchRow } from './common';
import { parseOptions, progress, table } from './common';

type Case = (options: BenchOptions) => Promise<BenchRow[]>;

const CASES: Record<string, () => Promise<Case>> = {
	paging: async () => (await import('./paging')).benchPaging,
	upload: async () => (await import('./upload')).benchUpload,
	streaming: async () => (await import('./streaming')).benchStreaming,
	polling: async () => (await import('./polling')).benchPolling,
	items: async () => (await import('./items')).benchItems,
	rates: async () => (await import('./rates')).benchRates,
	queue: async () => (await import('./queue')).benchQueue,
	chatmodel: async () => (await import('./chat-model')).benchChatModel,
	chatreading: async () => (await import('./chat-model-reading')).benchChatReading,
	chatmemory: async () => (await import('./chat-memory')).benchChatMemory,
};

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	if (options.quick && !process.argv.includes('--runs')) options.runs = 3;
	const names = options.only.length ? options.only : Object.keys(CASES);
	for (const name of names)
		if (!CASES[name])
			throw new Error(`unknown case "${name}" (known: ${Object.keys(CASES).join(', ')})`);

	const rows: BenchRow[] = [];
	const started = Date.now();
	for (const name of names) {
		const caseStarted = Date.now();
		progress(`case ${name}`);
		try {
			rows.push(...(await (await CASES[name]())(options)));
		} catch (error) {
			progress(`case ${name} failed: ${(error as Error).stack ?? error}`);
			rows.push({
				case: name,
				figure: 'could not be measured',
				measured: (error as Error).message.split('\n')[0],
				baseline: '–',
				value: Number.NaN,
				target: '–',
				met: false,
			});
		}
		progress(`case ${name} took ${((Date.now() - caseStarted) / 1000).toFixed(0)} s`);
	}

	const notes = rows.filter((r) => r.note).map((r) => `- ${r.case}, ${r.figure}: ${r.note}`);
	const output = [
		'',
		`Benchmarks (${new Date().toISOString().slice(0, 10)}, ${options.runs} run(s) per figure, medians; ${((Date.now() - started) / 60000).toFixed(1)} min)`,
		'',
		table(rows),
		'',
		...(notes.length ? ['Notes:', ...notes, ''] : []),
		`${rows.filter((r) => r.met && !r.info).length} of ${rows.filter((r) => !r.info).length} targets met`,
	].join('\n');
	console.log(output);
	if (process.env.BENCH_OUTPUT) writeFileSync(process.env.BENCH_OUTPUT, `${output}\n`, 'utf8');
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
