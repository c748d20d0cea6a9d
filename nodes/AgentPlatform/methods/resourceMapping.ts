import type { FieldType, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { DEDICATED_QUESTIONS, getAgentDefinition, optionsOfQuestion } from '../helpers/agents';
import { currentAgentId } from './loadOptions';

/** The question types seen in the spec and in public clients; anything else is asked as text. */
const FIELD_TYPES: Record<string, FieldType> = {
	select: 'options',
	number: 'number',
	// a text field, not n8n's JSON editor, which marks an empty (unanswered) array as an error
	array: 'string',
	boolean: 'boolean',
	// several of the options, typed comma-separated and sent comma-joined
	multiselect: 'string',
	textarea: 'string',
	file: 'url',
};

/** The picked agent's questions (besides chat's own), one field each, for answering field by field. */
export async function getAnswerFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const agentId = currentAgentId(this);
	if (!agentId)
		return { fields: [], emptyFieldsNotice: 'Pick an agent first: its questions appear here.' };
	const agent = await getAgentDefinition.call(this, agentId);
	const fields = agent.questions
		.filter((question) => !DEDICATED_QUESTIONS.includes(question.name))
		.map((question) => {
			const type = FIELD_TYPES[question.type] ?? 'string';
			const hasDefault =
				question.default !== undefined && question.default !== null && question.default !== '';
			// n8n cuts an answer's label after about 25 characters: the name and how to type it, no more
			const notes = [
				question.type === 'multiselect' ? 'comma-separated' : undefined,
				question.type === 'file' ? 'URL' : undefined,
				question.type === 'array' ? 'JSON array' : undefined,
				hasDefault ? `default ${String(question.default)}` : undefined,
			].filter(Boolean);
			return {
				id: question.name,
				displayName: notes.length ? `${question.name} (${notes.join('; ')})` : question.name,
				// a question with a default runs without an answer
				required: question.required === true && !hasDefault,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type,
				...(type === 'options' ? { options: optionsOfQuestion(question) } : {}),
			};
		});
	return {
		fields,
		...(fields.length ? {} : { emptyFieldsNotice: 'This agent asks no other questions.' }),
	};
}
