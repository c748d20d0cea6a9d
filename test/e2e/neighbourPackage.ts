/**
 * A second community package, as many are published: one small node, and `n8n-workflow` as a
 * required peer (`"*"`). Made and packed here (npm pack, nothing fetched), to sit beside the
 * package in an n8n nodes folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { run } from '../../dev/n8n/harness';

export const NEIGHBOUR = {
	name: 'n8n-nodes-neighbour-check',
	nodeType: 'n8n-nodes-neighbour-check.neighbour',
};

const NODE_SOURCE = `const { NodeConnectionTypes } = require('n8n-workflow');

class Neighbour {
	constructor() {
		this.description = {
			displayName: 'Neighbour',
			name: 'neighbour',
			group: ['transform'],
			version: 1,
			description: 'Passes its items on',
			defaults: { name: 'Neighbour' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};
	}

	async execute() {
		return [this.getInputData()];
	}
}

module.exports = { Neighbour };
`;

/**
 * Packs the neighbour package into a new temporary folder; returns the tarball's path (the folder
 * is the caller's to remove).
 */
export async function packNeighbour(): Promise<string> {
	const dir = mkdtempSync(join(tmpdir(), 'agent-platform-neighbour-'));
	const source = join(dir, 'package');
	mkdirSync(join(source, 'dist', 'nodes', 'Neighbour'), { recursive: true });
	writeFileSync(
		join(source, 'package.json'),
		JSON.stringify(
			{
				name: NEIGHBOUR.name,
				version: '1.0.0',
				description: 'A community package beside n8n-nodes-agent-platform',
				keywords: ['n8n-community-node-package'],
				license: 'MIT',
				files: ['dist'],
				n8n: {
					n8nNodesApiVersion: 1,
					nodes: ['dist/nodes/Neighbour/Neighbour.node.js'],
					credentials: [],
				},
				peerDependencies: { 'n8n-workflow': '*' },
			},
			null,
			2,
		),
	);
	writeFileSync(join(source, 'dist', 'nodes', 'Neighbour', 'Neighbour.node.js'), NODE_SOURCE);
	const { stdout } = await run('npm', ['pack', '--quiet', '--pack-destination', dir], {
		cwd: source,
		what: 'npm pack the neighbour package',
	});
	return join(dir, stdout.trim().split('\n').pop()!.trim());
}
