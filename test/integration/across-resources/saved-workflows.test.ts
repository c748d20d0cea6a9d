/**
 * Saved workflows keep working: every workflow saved in the repository (the examples, the
 * end-to-end fixtures, the soak workflow) is loaded as n8n's engine loads it, and each Agent
 * Platform node in it must name an operation the router runs, keep every parameter it was saved
 * with (n8n silently drops a parameter its description does not show), and hold option values
 * the editor offers for its version. An option value renamed or dropped without keeping the old
 * one fails here (docs/development.md, "Saved workflows").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { isExpression, NodeHelpers } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { findOperation } from '../../../nodes/AgentPlatform/actions/router';
import { AGENT_PLATFORM_NODE_TYPE } from '../../infra/n8n/credentials';
import { loadSavedNode } from '../../infra/n8n/runNode';

const ROOT = path.join(__dirname, '../../..');
const FOLDERS = ['examples', 'test/e2e/workflows', 'test/soak'];
/** What n8n adds to the Tool variant of a node that is `usableAsTool` (the AI Agent's tool). */
const TOOL_TYPE = `${AGENT_PLATFORM_NODE_TYPE}Tool`;
const TOOL_PARAMETERS = ['descriptionType', 'toolDescription'];

const savedNodes = FOLDERS.flatMap((folder) =>
	readdirSync(path.join(ROOT, folder))
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(path.join(ROOT, folder, file), 'utf8')) as {
				nodes?: INode[];
			};
			return (
				(workflow.nodes ?? [])
					.filter((node) => node.type === AGENT_PLATFORM_NODE_TYPE || node.type === TOOL_TYPE)
					// A fixture whose parameters are one placeholder gets them from its tests.
					.filter((node) => typeof node.parameters === 'object')
					.map((node) => ({ where: `${folder}/${file}: "${node.name}"`, node }))
			);
		}),
);

const node = new AgentPlatform();

function descriptionOf(version: number): INodeTypeDescription {
	return NodeHelpers.getVersionedNodeType(node, version).description;
}

/** The top-level option lists shown for the node as loaded (same-name properties differ by version or resource). */
function shownOptionProperties(saved: INode, loaded: INode['parameters']): INodeProperties[] {
	const description = descriptionOf(saved.typeVersion);
	return description.properties.filter(
		(property) =>
			property.type === 'options' &&
			!property.typeOptions?.loadOptionsMethod &&
			NodeHelpers.displayParameter(loaded, property, saved, description),
	);
}

describe('Workflows saved in the repository', () => {
	it('are found (examples, end-to-end fixtures, soak)', () => {
		for (const folder of FOLDERS)
			expect(savedNodes.some(({ where }) => where.startsWith(folder))).toBe(true);
		expect(savedNodes.some(({ node: saved }) => saved.type === TOOL_TYPE)).toBe(true);
	});

	it.each(savedNodes.map(({ where, node: saved }) => [where, saved] as const))(
		'%s: its operation runs and its parameters are known',
		(_where, saved) => {
			const versions = ([] as number[]).concat(node.description.version);
			expect(versions).toContain(saved.typeVersion);

			const loaded = loadSavedNode(saved);
			const { resource, operation } = loaded as { resource: string; operation: string };
			expect(findOperation(resource, operation)).toBeInstanceOf(Function);

			const extra = saved.type === TOOL_TYPE ? TOOL_PARAMETERS : [];
			const dropped = Object.keys(saved.parameters).filter(
				(name) => !(name in loaded) && !extra.includes(name),
			);
			expect(dropped).toEqual([]);

			for (const property of shownOptionProperties(saved, loaded)) {
				const value = loaded[property.name];
				if (typeof value === 'string' && isExpression(value)) continue;
				const offered = (property.options ?? []).map((option) => 'value' in option && option.value);
				expect({ [property.name]: value }).toEqual({
					[property.name]: offered.includes(value as string | number | boolean) ? value : offered,
				});
			}
		},
	);
});

describe("Agent File's old operation value `list`", () => {
	const operationOptions = (version: number) =>
		descriptionOf(version)
			.properties.filter(
				(property) =>
					property.name === 'operation' &&
					NodeHelpers.displayParameter(
						{ resource: 'agentFile' },
						property,
						{ typeVersion: version },
						descriptionOf(version),
					),
			)
			.flatMap((property) =>
				(property.options ?? []).map((option) => 'value' in option && option.value),
			);

	it('is offered to version 1 nodes, which may hold it, and not to new nodes', () => {
		expect(operationOptions(1)).toEqual(['getAll', 'link', 'list', 'unlink']);
		expect(node.description.defaultVersion).toBe(1.4);
		expect(operationOptions(1.1)).toEqual(['getAll', 'link', 'unlink']);
		expect(operationOptions(1.2)).toEqual(['getAll', 'link', 'unlink']);
		expect(operationOptions(1.4)).toEqual(['getAll', 'link', 'unlink']);
	});

	it('runs as Get Many, with the agent it was saved with', () => {
		expect(findOperation('agentFile', 'list')).toBe(findOperation('agentFile', 'getAll'));
		const loaded = loadSavedNode({
			id: 'saved',
			name: 'Saved',
			type: AGENT_PLATFORM_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				resource: 'agentFile',
				operation: 'list',
				agentId: { __rl: true, mode: 'id', value: '7' },
			},
		});
		expect(loaded.agentId).toEqual({ __rl: true, mode: 'id', value: '7' });
	});
});

describe("Execute's chat files (node version 1.3)", () => {
	const shown = (version: number, name: string) => {
		const description = descriptionOf(version);
		const parameters = { resource: 'agent', operation: 'execute', messageSource: 'chatTrigger' };
		const on = { typeVersion: version };
		return description.properties
			.filter((property) => NodeHelpers.displayParameter(parameters, property, on, description))
			.some(
				(property) =>
					property.name === name ||
					(property.name === 'options' &&
						(property.options ?? []).some(
							(option) =>
								'name' in option &&
								option.name === name &&
								NodeHelpers.displayParameterPath(
									parameters,
									option as INodeProperties,
									'',
									on,
									description,
								),
						)),
			);
	};

	it('a saved version 1.2 node is not offered them (it attaches only Attach Input Binaries); a new node is', () => {
		expect(shown(1.2, 'chatFilesNotice')).toBe(false);
		expect(shown(1.2, 'attachChatFiles')).toBe(false);
		expect(shown(1.3, 'chatFilesNotice')).toBe(true);
		expect(shown(1.3, 'attachChatFiles')).toBe(true);
		// the saved node says what it does with the chat's files, the new one does not need to
		expect(shown(1.2, 'chatFilesNoticeV12')).toBe(true);
		expect(shown(1.3, 'chatFilesNoticeV12')).toBe(false);
	});
});
