/** Stops the end-to-end run's n8n of each line (jest globalTeardown; e2eLines.ts starts them). */
import type { N8nInstance } from '../../dev/n8n/harness';
import { RUNNING } from './e2eLines';

export default async function stopLines(): Promise<void> {
	const running = (globalThis as typeof globalThis & { [RUNNING]?: N8nInstance[] })[RUNNING] ?? [];
	await Promise.all(running.map((n8n) => n8n.dispose()));
}
