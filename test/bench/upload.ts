/**
 * Case 2, Upload: the files engineers' memory benchmark (test/bench/upload-memory.ts), run as it
 * is, in a process of its own: a 200 MiB file through File → Upload in real n8n with binaries on
 * disk. Figures per n8n line (medians of its runs): the growth of the n8n process's peak RSS over
 * a workflow that only reads the same file (baseline), and the node's execution time over
 * `curl -F` sending the same file to the same emulator (baseline).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BenchOptions, BenchRow } from './common';
import { REPO, progress } from './common';

interface UploadMedians {
	line: string;
	growthMb: number;
	maxGrowthMb: number;
	uploadSeconds: number;
	curlSeconds: number;
	axiosSeconds: number;
	sizeMb: number;
	runs: number;
}

export async function benchUpload(options: BenchOptions): Promise<BenchRow[]> {
	const folder = mkdtempSync(join(tmpdir(), 'bench-upload-result-'));
	const resultFile = join(folder, 'result.json');
	const runs = String(Math.min(options.runs, options.quick ? 1 : 3));
	try {
		const code = await new Promise<number | null>((resolve, reject) => {
			const child = spawn(
				process.execPath,
				[
					'-r',
					'ts-node/register/transpile-only',
					join(REPO, 'test', 'bench', 'upload-memory.ts'),
					'--runs',
					runs,
					...(options.quick ? ['--size-mb', '50'] : []),
				],
				{
					cwd: REPO,
					stdio: ['ignore', 2, 2],
					env: { ...process.env, BENCH_RESULT_FILE: resultFile },
				},
			);
			child.on('error', reject);
			child.on('exit', resolve);
		});
		progress(`upload-memory.ts exited with ${code}`);
		const results = JSON.parse(readFileSync(resultFile, 'utf8')) as UploadMedians[];
		return results.flatMap((r) => [
			{
				case: '2 Upload',
				figure: `n8n ${r.line}: ${r.sizeMb} MiB File → Upload, binaries on disk: peak RSS growth over reading the file only`,
				measured: `${r.growthMb >= 0 ? '+' : ''}${r.growthMb.toFixed(0)} MB`,
				baseline: 'read-only workflow',
				value: r.growthMb,
				target: `≤ ${r.maxGrowthMb} MB`,
				met: r.growthMb <= r.maxGrowthMb,
				note: `medians of ${r.runs} run(s)`,
			},
			{
				case: '2 Upload',
				figure: `n8n ${r.line}: ${r.sizeMb} MiB upload time (node's execution time) ÷ curl -F`,
				measured: `${r.uploadSeconds.toFixed(2)} s`,
				baseline: `${r.curlSeconds.toFixed(2)} s`,
				value: r.uploadSeconds / r.curlSeconds,
				target: '≤ 1.3×',
				met: r.uploadSeconds / r.curlSeconds <= 1.3,
				note: `the node's multipart body sent by axios alone, outside n8n: ${r.axiosSeconds.toFixed(2)} s (${(r.axiosSeconds / r.curlSeconds).toFixed(2)}× curl)`,
			},
		]);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
