/** The editor's lookups run as n8n runs them: searchable lists, dropdowns and the resource mapper's fields. */

import { LoadOptionsContext } from 'n8n-core';
import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	ResourceMapperFields,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { AGENT_PLATFORM_NODE_TYPE, HarnessCredentials } from './credentials';
import { ensureN8nContainer, HarnessNodeTypes, additionalDataFor } from './container';
import { nodeUnderTest } from './runNode';

// ---------------------------------------------------------------------------------------------
// listSearch / loadOptions
// ---------------------------------------------------------------------------------------------

export interface LoadOptionsRunOptions {
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	/** The parameter the method fills, as n8n's editor sends it (e.g. `parameters.agentId`). */
	path?: string;
	nodeType?: INodeType;
}

/**
 * A node type of a test's own (run with `runNode({ nodeType })`), for what the Agent Platform node
 * does not do itself: `execute` gets n8n's real execute context.
 */
export function probeNodeType(
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>,
	credentials: INodeTypeDescription['credentials'] = undefined,
): INodeType {
	return {
		description: {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Test probe',
			defaults: { name: 'Probe' },
			inputs: ['main'],
			outputs: ['main'],
			...(credentials ? { credentials } : {}),
			properties: [],
		},
		execute,
	};
}

/** n8n-core's real ILoadOptionsFunctions for the node, as n8n's dynamic-parameters endpoint builds it. */
async function loadOptionsContext(options: LoadOptionsRunOptions): Promise<{
	context: ILoadOptionsFunctions;
	nodeType: INodeType;
}> {
	await ensureN8nContainer();
	const nodeType = options.nodeType ?? new AgentPlatform();
	const node = nodeUnderTest({ parameters: options.parameters });
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes({ [AGENT_PLATFORM_NODE_TYPE]: nodeType }),
	});
	const additionalData = additionalDataFor(options.credentials, {
		currentNodeParameters: options.parameters,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData, options.path ?? '');
	return { context, nodeType };
}

/** Runs one of the node's `methods.listSearch` functions, as the resource locator's search box does. */
export async function listSearch(
	method: string,
	options: LoadOptionsRunOptions & { filter?: string; paginationToken?: string },
): Promise<INodeListSearchResult> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.listSearch?.[method];
	if (!fn) throw new Error(`The node has no listSearch method "${method}"`);
	return await fn.call(context, options.filter, options.paginationToken);
}

/** Runs one of the node's `methods.loadOptions` functions, as an options dropdown does. */
export async function loadOptions(
	method: string,
	options: LoadOptionsRunOptions,
): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.loadOptions?.[method];
	if (!fn) throw new Error(`The node has no loadOptions method "${method}"`);
	return await fn.call(context);
}

/** Runs one of the node's `methods.resourceMapping` functions, as a resource mapper's field list does. */
export async function resourceMapping(
	method: string,
	options: LoadOptionsRunOptions,
): Promise<ResourceMapperFields> {
	const { context, nodeType } = await loadOptionsContext(options);
	const fn = nodeType.methods?.resourceMapping?.[method];
	if (!fn) throw new Error(`The node has no resourceMapping method "${method}"`);
	return await fn.call(context);
}
