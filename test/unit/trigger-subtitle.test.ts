/**
 * The trigger's canvas subtitle, evaluated by n8n-workflow's own expression engine as the editor
 * does it: the picked agent's name (the picker's cachedResultName, up to its " — " description),
 * the ID when it was typed in, nothing before an agent is picked.
 */
import type { INode, INodeParameterResourceLocator, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { AgentPlatformTrigger } from '../../nodes/AgentPlatform/AgentPlatformTrigger.node';

const trigger = new AgentPlatformTrigger();
const nodeTypes = {
	getByName: () => trigger,
	getByNameAndVersion: () => trigger,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

function subtitleWith(agentId: INodeParameterResourceLocator): unknown {
	const node: INode = {
		id: 'trigger',
		name: 'Agent Platform Trigger',
		type: 'n8n-nodes-agent-platform.agentPlatformTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { event: 'runFinished', agentId },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		trigger.description.subtitle as string,
		'internal',
		{},
	);
}

it('names the picked agent, not its ID; an ID typed in is shown as the ID', () => {
	expect(
		subtitleWith({
			__rl: true,
			mode: 'list',
			value: '3',
			cachedResultName: 'Text Summarizer (text) — Writes and rewrites text (Text Summarizer)',
		}),
	).toBe('Finished runs of Text Summarizer (text)');
	expect(subtitleWith({ __rl: true, mode: 'id', value: '7' })).toBe('Finished runs of agent 7');
	expect(subtitleWith({ __rl: true, mode: 'list', value: '' })).toBe('');
});
