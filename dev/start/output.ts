/** npm start's view of its children's output: prefixed lines here, and n8n's log followed (VERBOSE=1). */
import { spawn, type ChildProcess } from 'node:child_process';

/** Each line of `chunk` prefixed "[name] ". */
export function prefixLines(name: string, chunk: Buffer | string): string {
	return chunk
		.toString()
		.split('\n')
		.map((l, i, all) => (i === all.length - 1 && l === '' ? '' : `[${name}] ${l}\n`))
		.join('');
}

/** VERBOSE=1: shows n8n's log as it grows. */
export function followLog(file: string): ChildProcess {
	const child = spawn('tail', ['-n', '0', '-F', file], { stdio: ['ignore', 'pipe', 'ignore'] });
	child.stdout.on('data', (chunk: Buffer) => process.stderr.write(prefixLines('n8n', chunk)));
	process.on('exit', () => child.kill());
	return child;
}
