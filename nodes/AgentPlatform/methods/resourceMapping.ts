import type { FieldType, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import type { AgentQuestion } from '../helpers/agents';
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

/** n8n cuts an answer's label after about 25 characters (both lines): longer notes are left out. */
const LABEL_WIDTH = 25;

/** `max_words` → `Max Words`, `negativeKeywords` → `Negative Keywords`. */
export function readableName(name: string): string {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(/[\s_-]+/)
		.filter(Boolean)
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');
}

/**
 * An answer's label: the question's name in words, then how to type it and its default while
 * they fit n8n's width (the error of a missing or wrong answer says the rest).
 */
function answerLabel(question: AgentQuestion, hasDefault: boolean): string {
	const notes = [
		question.type === 'multiselect' ? 'comma-separated' : undefined,
		question.type === 'file' ? 'URL' : undefined,
		question.type === 'array' ? 'JSON list' : undefined,
		hasDefault ? `default ${String(question.default)}` : undefined,
	].filter((note): note is string => note !== undefined);
	let label = readableName(question.name) || question.name;
	for (const note of notes) {
		const longer = label.endsWith(')') ? `${label.slice(0, -1)}; ${note})` : `${label} (${note})`;
		if (longer.length > LABEL_WIDTH) break;
		label = longer;
	}
	return label;
}

/** The picked agent's questions (besides chat's own), one field each, for answering field by field. */
export async function getAnswerFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const agentId = currentAgentId(this);
	// no emptyFieldsNotice: n8n shows it as a yellow warning in both lines; an empty list shows
	// nothing, and the Answers description says why
	if (!agentId) return { fields: [] };
	const agent = await getAgentDefinition.call(this, agentId);
	const fields = agent.questions
		.filter((question) => !DEDICATED_QUESTIONS.includes(question.name))
		.map((question) => {
			const type = FIELD_TYPES[question.type] ?? 'string';
			const hasDefault =
				question.default !== undefined && question.default !== null && question.default !== '';
			return {
				// the id is the platform's name of the question: saved workflows key their answers by it
				id: question.name,
				displayName: answerLabel(question, hasDefault),
				// a question with a default runs without an answer
				required: question.required === true && !hasDefault,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type,
				...(type === 'options' ? { options: optionsOfQuestion(question) } : {}),
			};
		});
	return { fields };
}
