/**
 * Opening each example in n8n's editor, and a workflow saved before a value was renamed, and each
 * of their nodes changes nothing (no "parameters have changed", no "outdated", no red field, no
 * autosave: the stored versionId stays), in a real browser on n8n 1.x and 2.x (see
 * editor.e2e.test.ts). Each workflow takes 10 to 20 s (n8n's lookups load, then its autosave
 * would show), so two test files share them (editor-examples-1 and -2: every other one), each
 * on the line's shared n8n with a browser of its own.
 */
import {
	closeNode,
	editorClean,
	openNode,
	openWorkflow,
	restSettled,
	step,
} from '../../dev/n8n/browser';
import {
	exampleNames,
	loadExample,
	selectedLines,
	type N8nLine,
	type WorkflowFixture,
} from '../../dev/n8n/harness';
import { AgentPlatform } from '../../nodes/AgentPlatform/AgentPlatform.node';
import {
	CHANGED_WORDS,
	SAVED_BEFORE_RENAME,
	useEditorOfLine,
	redFields,
	storedWorkflow,
} from './editor.shared';

/**
 * Words a form showed that were no longer true of it: the notice of node version 1.2 (an example
 * at an older version), n8n's "Latest version" of an outdated node, the Memory notice that read as
 * "no memory" beside a connected one.
 */
const STALE_WORDS = [/This node \(version 1\.2\)/, /Latest version/, /unless a Memory/];
/** The current version of each node type of the package: the examples use it. */
const LATEST_VERSIONS: Record<string, number | undefined> = {
	agentPlatform: new AgentPlatform().description.defaultVersion,
	agentPlatformTool: new AgentPlatform().description.defaultVersion,
};

/** Part `part` (1 or 2) of the examples and the workflow saved before a rename: every other one. */
function workflowsOfPart(part: 1 | 2): Array<readonly [string, WorkflowFixture]> {
	return [
		...exampleNames().map((name) => [name, loadExample(name)] as const),
		['agent-file-list-v1', SAVED_BEFORE_RENAME] as const,
	].filter((_, index) => index % 2 === part - 1);
}

/**
 * The cases of part `part` on each line. `alongside`: another case of the line's whose set-up
 * (registered first) comes before the examples' and whose test (`test()`) runs after them, e.g.
 * one that must wait out a minute (editor.held.ts).
 */
export function openingExamples(
	part: 1 | 2,
	alongside?: (line: N8nLine) => { test(): void },
): void {
	describe.each(selectedLines())(
		`n8n $line ($version): opening the examples in the editor, part ${part}`,
		(line) => {
			const other = alongside?.(line);
			const editor = useEditorOfLine(
				line,
				`editor-examples-${part}`,
				workflowsOfPart(part).map(([, workflow]) => workflow),
			);

			it(`opening each workflow of part ${part} (the examples, and a workflow saved before a rename), and each of its nodes, changes nothing`, async () => {
				const { n8n, page, id } = editor;
				const problems: string[] = [];
				for (const [name, example] of workflowsOfPart(part)) {
					await step(page, `${line.line}-example-${name}`, async () => {
						const first = example.nodes.find((node) => !/stickyNote/i.test(node.type))!;
						await openWorkflow(page, n8n.baseUrl, id(example.id), first.name);
						const before = await storedWorkflow(page, id(example.id));
						for (const node of example.nodes) {
							if (/stickyNote|manualTrigger/i.test(node.type)) continue;
							const ndv = await openNode(page, node.name);
							await restSettled(page); // dynamic options and answer fields load
							if (await page.getByText(CHANGED_WORDS).count())
								problems.push(`${name}, ${node.name}: n8n says it changed`);
							if (/agentPlatform/.test(node.type)) {
								for (const red of await redFields(ndv))
									problems.push(`${name}, ${node.name}: ${red}`);
								const words = await ndv.innerText();
								for (const stale of STALE_WORDS)
									if (stale.test(words)) problems.push(`${name}, ${node.name}: shows ${stale}`);
								const latest = LATEST_VERSIONS[node.type.split('.').pop()!];
								if (example !== SAVED_BEFORE_RENAME && latest && node.typeVersion !== latest)
									problems.push(
										`${name}, ${node.name}: version ${node.typeVersion}, not ${latest}`,
									);
							}
							await closeNode(page);
						}
						if (example === SAVED_BEFORE_RENAME) {
							// the old value is shown as what it is, not as an unsupported one
							const ndv = await openNode(page, 'List (old value)');
							const operation = ndv.locator('[data-test-id="parameter-input-operation"] input');
							const shown = await operation.first().inputValue();
							if (shown !== 'List (Old Name of Get Many)')
								problems.push(`${name}: its operation is shown as "${shown}"`);
							await closeNode(page);
						}
						// n8n 2.x saves a change on its own 1.5 s after it: wait until nothing is unsaved
						await restSettled(page);
						await editorClean(page);
						const after = await storedWorkflow(page, id(example.id));
						if (after.versionId !== before.versionId) {
							problems.push(`${name}: n8n saved it again as ${JSON.stringify(after.nodes)}`);
						}
					});
				}
				expect(problems).toEqual([]);
			});
			other?.test();
		},
	);
}
