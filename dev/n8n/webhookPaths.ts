/**
 * The Webhook paths of an n8n that several test files share (the end-to-end run's n8n of a line):
 * a Webhook node's `path` is n8n's address of the workflow once active, the same for every copy of
 * a fixture, so each path belongs to one file. A register in the n8n's folder, written by one
 * file at a time under the lock, records which file claimed each path; a second file claiming one
 * fails, naming both workflows and both files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowFixture } from './examples';
import { withLock } from './lock';

/** n8n's Webhook node; its path is its address under /webhook/ (Chat and Form Triggers use their webhookId). */
const WEBHOOK_NODE = 'n8n-nodes-base.webhook';

interface Claim {
	tag: string;
	workflow: string;
}

/** The fixed paths of a workflow's Webhook nodes (an expression or an empty path is not one). */
export function webhookPaths(workflow: WorkflowFixture): string[] {
	return workflow.nodes
		.filter((node) => node.type === WEBHOOK_NODE)
		.map((node) => node.parameters.path)
		.filter(
			(path): path is string => typeof path === 'string' && path !== '' && !path.startsWith('='),
		)
		.map((path) => path.replace(/^\/+|\/+$/g, ''));
}

/**
 * Records that the file `tag` uses these workflows' Webhook paths on the n8n in `folder`; throws
 * when another file (or another of this file's workflows) claimed one, so that two files never
 * answer on one address.
 */
export async function claimWebhookPaths(
	folder: string,
	tag: string,
	workflows: WorkflowFixture[],
): Promise<void> {
	const register = join(folder, 'webhook-paths.json');
	await withLock(join(folder, 'webhook-paths.lock'), async () => {
		const claims: Record<string, Claim> = existsSync(register)
			? (JSON.parse(readFileSync(register, 'utf8')) as Record<string, Claim>)
			: {};
		const clashes: string[] = [];
		for (const workflow of workflows) {
			for (const path of webhookPaths(workflow)) {
				const claim = claims[path];
				if (claim && !(claim.tag === tag && claim.workflow === workflow.name))
					clashes.push(
						`Webhook path "${path}" of workflow "${workflow.name}" (test file tag "${tag}") is already the path of workflow "${claim.workflow}" (tag "${claim.tag}")`,
					);
				else claims[path] = { tag, workflow: workflow.name };
			}
		}
		if (clashes.length)
			throw new Error(
				`${clashes.join('; ')} on the shared n8n: give the Webhook node's parameters.path a value of this file's own (a placeholder in its fixture)`,
			);
		writeFileSync(register, JSON.stringify(claims, null, 2));
	});
}
