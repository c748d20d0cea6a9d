/**
 * Opening examples in n8n's editor, and a workflow saved before a value was renamed, and each of
 * the package's nodes in them changes nothing (no "parameters have changed", no "outdated", no
 * red field, no autosave: the stored versionId stays), in a real browser on n8n 2.x (see
 * editor.e2e.test.ts). Each workflow takes 5 to 10 s (n8n's lookups load, then its autosave would
 * show): the browser opens one example per node of the package (action, trigger, chat model,
 * tool) and the one with the most operations; every saved workflow's parameters are checked as
 * n8n loads them by test/integration/across-resources/saved-workflows.test.ts.
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
	type N8nLine,
	PACKAGE_NAME,
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
import { describeEachLine } from './fixtures';

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

/** The examples opened: each node type of the package, and the most operations in one workflow. */
const OPENED = [
	'when-an-agent-finishes', // the trigger
	'chat-with-a-platform-model-in-the-ai-agent', // the chat model under n8n's AI Agent
	'ai-agent-with-a-platform-agent-tool', // the action node as the AI Agent's tool
	'read-a-conversation-back', // three operations of the action node
];

/** The examples opened and the workflow saved before a rename. */
function openedWorkflows(): Array<readonly [string, WorkflowFixture]> {
	const missing = OPENED.filter((name) => !exampleNames().includes(name));
	if (missing.length) throw new Error(`no example named ${missing.join(', ')} in examples/`);
	return [
		...OPENED.map((name) => [name, loadExample(name)] as const),
		['agent-file-list-v1', SAVED_BEFORE_RENAME] as const,
	];
}

/**
 * The cases on each line. `alongside`: another case of the line's whose set-up
 * (registered first) comes before the examples' and whose test (`test()`) runs after them, e.g.
 * one that must wait out a minute (editor.held.ts).
 */
export function openingExamples(alongside?: (line: N8nLine) => { test(): void }): void {
	describeEachLine()('n8n $line ($version): opening examples in the editor', (line) => {
		const other = alongside?.(line);
		const editor = useEditorOfLine(
			line,
			'editor-examples',
			openedWorkflows().map(([, workflow]) => workflow),
		);

		it('opening an example of each node of the package, and a workflow saved before a rename, and each of their nodes of the package, changes nothing', async () => {
			const { n8n, page, id } = editor;
			const problems: string[] = [];
			for (const [name, example] of openedWorkflows()) {
				await step(page, `${line.line}-example-${name}`, async () => {
					const first = example.nodes.find((node) => !/stickyNote/i.test(node.type))!;
					await openWorkflow(page, n8n.baseUrl, id(example.id), first.name);
					const before = await storedWorkflow(page, id(example.id));
					// the package's nodes: n8n's own beside them are n8n's to keep unchanged
					for (const node of example.nodes) {
						if (!node.type.startsWith(`${PACKAGE_NAME}.`)) continue;
						const ndv = await openNode(page, node.name);
						await restSettled(page); // dynamic options and answer fields load
						if (await page.getByText(CHANGED_WORDS).count())
							problems.push(`${name}, ${node.name}: n8n says it changed`);
						for (const red of await redFields(ndv)) problems.push(`${name}, ${node.name}: ${red}`);
						const words = await ndv.innerText();
						for (const stale of STALE_WORDS)
							if (stale.test(words)) problems.push(`${name}, ${node.name}: shows ${stale}`);
						const latest = LATEST_VERSIONS[node.type.split('.').pop()!];
						if (example !== SAVED_BEFORE_RENAME && latest && node.typeVersion !== latest)
							problems.push(`${name}, ${node.name}: version ${node.typeVersion}, not ${latest}`);
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
	});
}
