import type { AgentConfig } from './types';

/**
 * Scripted answers (`outputs` in an agent's configuration): each run takes the next one, the last
 * one stays. A test tells the chat agent to answer with given JSON, or with broken JSON first.
 */
export function takeScriptedOutput(cfg: AgentConfig): string | undefined {
	const outputs = cfg.outputs;
	if (!outputs?.length) return undefined;
	return outputs.length > 1 ? outputs.shift() : outputs[0];
}
