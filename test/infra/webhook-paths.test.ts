/**
 * The register of Webhook paths on a shared n8n (dev/n8n/webhookPaths.ts, claimed by the
 * end-to-end fixture's activate()): one file per path, a clash named with both files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { WorkflowFixture } from '../../dev/n8n/examples';
import { claimWebhookPaths, webhookPaths } from '../../dev/n8n/webhookPaths';

let folder: string;
beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'webhook-paths-test-'))));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function workflow(name: string, ...paths: unknown[]): WorkflowFixture {
	return {
		id: `${name}`.padEnd(16, '0').slice(0, 16),
		name,
		connections: {},
		nodes: [
			{
				name: 'Manual',
				type: 'n8n-nodes-base.manualTrigger',
				parameters: { path: 'not-a-webhook' },
			},
			...paths.map((path, i) => ({
				name: `Webhook ${i}`,
				type: 'n8n-nodes-base.webhook',
				parameters: { path },
			})),
		],
	};
}

it("reads a workflow's fixed Webhook paths, not expressions, empty paths or other nodes", () => {
	expect(webhookPaths(workflow('w', '/ask-agent/', '={{ $json.path }}', '', 'page-all'))).toEqual([
		'ask-agent',
		'page-all',
	]);
});

it('fails when a second file claims a path, naming both workflows and both files', async () => {
	await claimWebhookPaths(folder, 'chat-model', [workflow('Chain', 'chat-model-chain')]);
	await expect(
		claimWebhookPaths(folder, 'chat-model-families', [
			workflow('Families chain', '/chat-model-chain'),
		]),
	).rejects.toThrow(
		'Webhook path "chat-model-chain" of workflow "Families chain" (test file tag "chat-model-families") is already the path of workflow "Chain" (tag "chat-model")',
	);
});

it("fails on two of one file's workflows with one path", async () => {
	await expect(
		claimWebhookPaths(folder, 'examples', [workflow('A', 'ask-agent'), workflow('B', 'ask-agent')]),
	).rejects.toThrow(
		'of workflow "B" (test file tag "examples") is already the path of workflow "A"',
	);
});

it('lets a file activate its workflow again, and other files use other paths', async () => {
	await claimWebhookPaths(folder, 'rate-limits', [workflow('Pages', 'page-all')]);
	await claimWebhookPaths(folder, 'rate-limits', [workflow('Pages', 'page-all')]);
	await claimWebhookPaths(folder, 'interactive-first', [workflow('Pages', 'page-all-interactive')]);
	expect(JSON.parse(readFileSync(join(folder, 'webhook-paths.json'), 'utf8'))).toEqual({
		'page-all': { tag: 'rate-limits', workflow: 'Pages' },
		'page-all-interactive': { tag: 'interactive-first', workflow: 'Pages' },
	});
});
