import type { IDataObject } from 'n8n-workflow';

import type { PlatformContext } from '../transport/request';
import { apiRequest } from '../transport/request';
import { oncePerRun } from '../transport/runCache';

/** An option of a select question: plain strings, `label:value` strings or `{label, value}` objects. */
export type QuestionOption = string | number | { label?: unknown; value?: unknown; name?: unknown };

export interface AgentQuestion {
	type: string;
	name: string;
	description?: string;
	required?: boolean;
	/** The value the platform uses when no answer is sent: such a question needs no answer. */
	default?: unknown;
	options?: QuestionOption[];
}

export interface AgentDefinition {
	id: number | string;
	title: string;
	type?: string;
	description?: string | null;
	questions: AgentQuestion[];
}

/** The chat agent's settings: optional on execute, the agent's own default when nothing is sent. */
export const CHAT_SETTINGS = ['model', 'tools', 'temperature'];
/** Questions the node asks for with their own parameters rather than as generic answers. */
export const DEDICATED_QUESTIONS = ['messages', 'root_id', ...CHAT_SETTINGS];
export const MAX_ATTACHMENTS = 5;

export async function getAgentDefinition(
	this: PlatformContext,
	agentId: string,
	itemIndex?: number,
): Promise<AgentDefinition> {
	// One GET per agent per node run, however many items use it.
	return await oncePerRun(this, `agent ${agentId}`, () =>
		apiRequest
			.call(this, {
				method: 'GET',
				path: `/agents/${agentId}`,
				resource: `agent ${agentId}`,
				itemIndex,
			})
			.then((agent) => {
				const record = agent as IDataObject;
				return {
					...record,
					id: record.id as number,
					title: String(record.title ?? `Agent ${agentId}`),
					questions: (Array.isArray(record.questions)
						? record.questions
						: []) as unknown as AgentQuestion[],
				} as AgentDefinition;
			}),
	);
}

/**
 * A select question's options as label and value. Public clients show them as plain strings,
 * `label:value` strings and `{label, value}` objects (docs/platform-assumptions.md).
 */
export function optionsOfQuestion(
	question: AgentQuestion | undefined,
): Array<{ name: string; value: string }> {
	if (!Array.isArray(question?.options)) return [];
	return question.options.map((option) => {
		if (option !== null && typeof option === 'object') {
			const value = String(option.value ?? option.label ?? option.name ?? '');
			return { name: String(option.label ?? option.name ?? value), value };
		}
		const text = String(option);
		const colon = text.indexOf(':');
		// `label:value`, but not a bare value that happens to hold a colon at its ends
		if (colon > 0 && colon < text.length - 1) {
			return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
		}
		return { name: text, value: text };
	});
}

export function questionOptions(
	agent: AgentDefinition,
	name: string,
): Array<{ name: string; value: string }> {
	return optionsOfQuestion(agent.questions.find((q) => q.name === name));
}
