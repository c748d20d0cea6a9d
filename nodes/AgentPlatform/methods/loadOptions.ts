import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { getAgentDefinition, questionOptions } from '../helpers/agents';

/** The picked agent's id, whichever mode of the agent picker was used. */
export function currentAgentId(ctx: ILoadOptionsFunctions): string | undefined {
	const value = ctx.getCurrentNodeParameter('agentId', { extractValue: true }) as string | undefined;
	const id = String(value ?? '').trim();
	return /^\d+$/.test(id) ? id : undefined;
}

async function optionsOf(ctx: ILoadOptionsFunctions, question: string): Promise<INodePropertyOptions[]> {
	const agentId = currentAgentId(ctx);
	if (!agentId) return [];
	const agent = await getAgentDefinition.call(ctx, agentId);
	return questionOptions(agent, question).map((option) => ({ name: option, value: option }));
}

/** The agent's own model choices (they differ per agent). */
export async function getModels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await optionsOf(this, 'model');
}

/** `no-tools` plus the agent's own tools. */
export async function getTools(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await optionsOf(this, 'tools');
}

export async function getTemperatures(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await optionsOf(this, 'temperature');
}
