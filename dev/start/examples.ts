/** Which example workflows of examples/ npm start imports into its n8n. */
import { exampleNames, loadExample, type WorkflowFixture } from '../n8n/examples';
import type { N8nInstance } from '../n8n/instance';

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
