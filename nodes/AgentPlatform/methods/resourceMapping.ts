import type { FieldType, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { DEDICATED_QUESTIONS, getAgentDefinition } from '../helpers/agents';
import { currentAgentId } from './loadOptions';

const FIELD_TYPES: Record<string, FieldType> = {
	select: 'options',
	number: 'number',
	array: 'array',
	boolean: 'boolean',
};

/** The picked agent's questions (besides chat's own), one field each, for answering field by field. */
export async function getAnswerFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const agentId = currentAgentId(this);
	if (!agentId) return { fields: [], emptyFieldsNotice: 'Pick an agent first: its questions appear here.' };
	const agent = await getAgentDefinition.call(this, agentId);
	const fields = agent.questions
		.filter((question) => !DEDICATED_QUESTIONS.includes(question.name))
		.map((question) => {
			const type = FIELD_TYPES[question.type] ?? 'string';
			return {
				id: question.name,
				displayName: question.description ? `${question.name} (${question.description})` : question.name,
				required: question.required === true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type,
				...(type === 'options'
					? { options: (question.options ?? []).map((option) => ({ name: String(option), value: String(option) })) }
					: {}),
			};
		});
	return {
		fields,
		...(fields.length ? {} : { emptyFieldsNotice: 'This agent asks no other questions.' }),
	};
}
