/**
 * Peak memory of one `n8n execute` process, for the memory benchmarks (upload-memory.ts,
 * download-memory.ts): VmHWM and VmRSS of /proc/<pid>/status sampled every 20 ms until it exits.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	N8nInstance,
	NODE24_BIN,
	n8nInstallDir,
	parseRunJson,
	type N8nRun,
} from '../../dev/n8n/harness';
import { freePort } from '../../dev/loopback';

function statusField(pid: number, field: string): number | undefined {
	try {
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
			readFileSync(`/proc/${pid}/status`, 'utf8'),
		);
		return match ? Number(match[1]) / 1024 : undefined;
	} catch {
		return undefined; // the process has just exited
	}
}

export interface Measured {
	peakMb: number;
	run: N8nRun;
	seconds: number;
}

/** `n8n execute --id` with the process's peak RSS sampled every 20 ms until it exits. */
export async function executeMeasured(n8n: N8nInstance, workflowId: string): Promise<Measured> {
	const entry = join(n8nInstallDir(n8n.line), 'node_modules', 'n8n', 'bin', 'n8n');
	const env = n8n.env({ N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
	const started = Date.now();
	const child = spawn(NODE24_BIN, [entry, 'execute', `--id=${workflowId}`, '--rawOutput'], {
		cwd: n8n.folder,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
	child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
	let peakMb = 0;
	const sample = () => {
		const hwm = statusField(child.pid!, 'VmHWM') ?? 0;
		const rss = statusField(child.pid!, 'VmRSS') ?? 0;
		peakMb = Math.max(peakMb, hwm, rss);
	};
	const timer = setInterval(sample, 20);
	const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
	clearInterval(timer);
	const run = parseRunJson(stdout);
	if (!run || code !== 0) {
		throw new Error(
			`n8n execute --id=${workflowId} failed (exit ${code})\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`,
		);
	}
	return { peakMb, run, seconds: (Date.now() - started) / 1000 };
}
