/** A trigger's webhook lifecycle (checkExists / create / delete) and its deliveries, as n8n drives them. */
import { HookContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { AgentPlatformTrigger } from '../../../nodes/AgentPlatform/AgentPlatformTrigger.node';
import { PACKAGE_NAME } from '../../../dev/constants';
import { HarnessCredentials } from './credentials';
import { ensureN8nContainer, HarnessNodeTypes, additionalDataFor } from './container';

// ---------------------------------------------------------------------------------------------
// A trigger's webhook lifecycle (checkExists / create / delete)
// ---------------------------------------------------------------------------------------------

export const AGENT_PLATFORM_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.agentPlatformTrigger`;

export interface TriggerLifecycle {
	/** n8n's production URL of the trigger's webhook (without the secret). */
	webhookUrl: string;
	/** The node's static data, kept across calls as n8n keeps it with the workflow. */
	staticData(): IDataObject;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	delete(): Promise<boolean>;
	/** What n8n does on activation: checkExists, then create when it answered false. */
	activate(): Promise<'kept' | 'created'>;
}

/**
 * The trigger's webhook methods on n8n-core's real HookContext (as n8n's activation builds it),
 * in trigger mode, all on one workflow so that the node's static data lives across the calls.
 */
export async function triggerLifecycle(options: {
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	webhookId?: string;
	nodeType?: INodeType;
}): Promise<TriggerLifecycle> {
	await ensureN8nContainer();
	const nodeType = options.nodeType ?? new AgentPlatformTrigger();
	const node: INode = {
		id: 'trigger-under-test',
		name: 'Agent Platform Trigger',
		type: AGENT_PLATFORM_TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		webhookId: options.webhookId ?? '5d0b7a7e-0000-4c1e-9a00-00000000f00d',
		credentials: { agentPlatformApi: { id: 'test-credential', name: 'Agent Platform (test)' } },
	};
	const workflow = new Workflow({
		id: 'harness-trigger-workflow',
		name: 'Harness trigger',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new HarnessNodeTypes({ [AGENT_PLATFORM_TRIGGER_NODE_TYPE]: nodeType }),
		staticData: {},
		settings: { executionOrder: 'v1' },
	});
	const additionalData = additionalDataFor(options.credentials, {});
	const methods = nodeType.webhookMethods?.default;
	if (!methods) throw new Error('The node has no default webhook methods');
	const call = async (method: 'checkExists' | 'create' | 'delete'): Promise<boolean> => {
		const context = new HookContext(workflow, node, additionalData, 'trigger', 'activate');
		return await methods[method].call(context);
	};
	const context = new HookContext(workflow, node, additionalData, 'trigger', 'activate');
	const lifecycle: TriggerLifecycle = {
		webhookUrl: context.getNodeWebhookUrl('default') ?? '',
		staticData: () => workflow.getStaticData('node', node) as IDataObject,
		checkExists: async () => await call('checkExists'),
		create: async () => await call('create'),
		delete: async () => await call('delete'),
		activate: async () =>
			(await call('checkExists')) ? 'kept' : (await call('create'), 'created'),
	};
	return lifecycle;
}
