/**
 * Execute's options as n8n's editor shows them: "Download Generated Files" is hidden in Start
 * Only (the run has made no file yet); workflows saved with it on in the other modes open unchanged.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AgentPlatform } from '../../nodes/AgentPlatform/AgentPlatform.node';

const node = new AgentPlatform();
const properties = node.description.properties;
const executeOptions = properties.find(
	(p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('execute'),
) as INodeProperties;
const download = (executeOptions.options as INodeProperties[]).find(
	(o) => o.name === 'downloadGeneratedFiles',
)!;

function shown(responseMode: string): boolean {
	const root: INodeParameters = { resource: 'agent', operation: 'execute', responseMode };
	return NodeHelpers.displayParameter({}, download, { typeVersion: 1 }, node.description, root);
}

describe('Agent → Execute: Download Generated Files', () => {
	it('is offered in Wait for Completion and Stream, not in Start Only', () => {
		expect(shown('wait')).toBe(true);
		expect(shown('stream')).toBe(true);
		expect(shown('start')).toBe(false);
	});

	const open = (responseMode?: string) =>
		NodeHelpers.getNodeParameters(
			properties,
			{
				resource: 'agent',
				operation: 'execute',
				...(responseMode ? { responseMode } : {}),
				options: { downloadGeneratedFiles: true, timeout: 5 },
			},
			false,
			false,
			{ typeVersion: 1 },
			node.description,
		)?.options;

	it('a workflow saved with it on opens unchanged in Wait for Completion (the default, as in the examples) and Stream', () => {
		expect(open()).toEqual({ downloadGeneratedFiles: true, timeout: 5 });
		expect(open('stream')).toEqual({ downloadGeneratedFiles: true, timeout: 5 });
	});

	it('in Start Only, where it never did anything, only that value is left out', () => {
		expect(open('start')).toEqual({ timeout: 5 });
	});
});
