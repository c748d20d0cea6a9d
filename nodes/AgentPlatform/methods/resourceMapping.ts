import type {
	FieldType,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	ResourceMapperFields,
} from 'n8n-workflow';

import type { AgentDefinition, AgentQuestion } from '../helpers/agents/definitions';
import {
	DEDICATED_QUESTIONS,
	optionsOfQuestion,
	readableName,
} from '../helpers/agents/definitions';
import { formAgent } from './formAgent';

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

/**
 * The value of Answer Name or ID's one option for an agent without answer fields: not the
 * default (''), which would show this option's words for the next agent picked.
 */
export const NO_ANSWERS = 'none';

/** The questions asked in the Answers fields: the agent's own, besides chat's dedicated ones. */
function answerQuestions(agent: AgentDefinition): AgentQuestion[] {
	return agent.questions.filter((question) => !DEDICATED_QUESTIONS.includes(question.name));
}

function hasDefault(question: AgentQuestion): boolean {
	return question.default !== undefined && question.default !== null && question.default !== '';
}

/** How an answer that is not plain text is typed: short for the label, long for the description. */
const TYPING: Record<string, { note: string; sentence: string }> = {
	multiselect: { note: 'comma-separated', sentence: 'Type one or more choices, comma-separated.' },
	file: { note: 'URL', sentence: 'The URL of a file (http or https).' },
	array: { note: 'JSON list', sentence: 'A JSON list, e.g. ["first", "second"].' },
};

/**
 * The mark of a required answer in its label. n8n 2.41.1 marks no required node parameter, and a
 * resource mapper's field only in mode `add` (MappingFields.vue), which Answers cannot use
 * (docs/design.md): the label carries it, as n8n's credential forms draw a required field's.
 */
export const REQUIRED_MARK = ' *';

/** Whether the agent runs only with an answer: required, and no default of its own to fall back on. */
function needsAnswer(question: AgentQuestion): boolean {
	return question.required === true && !hasDefault(question);
}

/**
 * An answer's label: the question's name in words, marked when it needs an answer, then how to
 * type it and its default while they fit n8n's width (Answer Name or ID and the error of a missing
 * or wrong answer say the rest).
 */
function answerLabel(question: AgentQuestion): string {
	const notes = [
		TYPING[question.type]?.note,
		hasDefault(question) ? `default ${String(question.default)}` : undefined,
	].filter((note): note is string => note !== undefined);
	const mark = needsAnswer(question) ? REQUIRED_MARK : '';
	let label = readableName(question.name);
	for (const note of notes) {
		const longer = label.endsWith(')') ? `${label.slice(0, -1)}; ${note})` : `${label} (${note})`;
		if (longer.length + mark.length > LABEL_WIDTH) break;
		label = longer;
	}
	return `${label}${mark}`;
}

/** The question's own description, whether it needs an answer, and how to type it. */
function answerDescription(question: AgentQuestion): string {
	const own = String(question.description ?? '').trim();
	const need = hasDefault(question)
		? `Optional: the agent uses ${String(question.default)} without an answer.`
		: question.required === true
			? 'Required.'
			: 'Optional.';
	return [own && !/[.!?]$/.test(own) ? `${own}.` : own, need, TYPING[question.type]?.sentence]
		.filter(Boolean)
		.join(' ');
}

/** The picked agent's questions (besides chat's own), one field each, for answering field by field. */
export async function getAnswerFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	// no emptyFieldsNotice: n8n shows it as a yellow warning in both lines, and keeps showing it
	// for the next agent without answers; an empty list shows nothing, and the Answers description
	// (or, for an ID the platform has no agent for, Answer Name or ID) says why
	const agent = (await formAgent(this, 'getAnswerFields'))?.definition;
	if (!agent) return { fields: [] };
	const fields = answerQuestions(agent).map((question) => {
		const type = FIELD_TYPES[question.type] ?? 'string';
		const description = String(question.description ?? '').trim();
		return {
			// the id is the platform's name of the question: saved workflows key their answers by it
			id: question.name,
			displayName: answerLabel(question),
			// a question with a default runs without an answer
			required: needsAnswer(question),
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type,
			// a field shows no description of its own; a dropdown shows each option's, under it
			...(type === 'options'
				? {
						options: optionsOfQuestion(question).map((option) =>
							description ? { ...option, description } : option,
						),
					}
				: {}),
		};
	});
	return { fields };
}

/**
 * The Answers' questions as the platform describes them, one option each (for reading: n8n's
 * answer fields show no description in either line, a dropdown's options do; docs/design.md).
 */
export async function getAnswerDescriptions(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const form = await formAgent(this, 'getAnswerDescriptions');
	if (!form) return [];
	const questions = answerQuestions(form.definition);
	const described: INodePropertyOptions[] = questions.map((question) => ({
		name: readableName(question.name),
		value: question.name,
		description: answerDescription(question),
	}));
	if (form.missing) {
		// no ID named: an answer n8n kept from an ID on the way would name a prefix (formAgent.ts)
		described.push({
			name: 'No Agent With This ID',
			value: NO_ANSWERS,
			description:
				'The platform has no agent with the ID given for this credential: check the ID, or pick the agent from the list',
		});
	} else if (!questions.length) {
		described.push({
			name: 'No Other Questions',
			value: NO_ANSWERS,
			description: 'This agent asks only what the parameters above ask',
		});
	}
	// A pick left from the agent picked before says so, first: the list follows the agent now picked.
	const left = this.getCurrentNodeParameter('answerDescriptions');
	if (
		typeof left === 'string' &&
		left &&
		left !== NO_ANSWERS &&
		!questions.some((question) => question.name === left)
	) {
		described.unshift({
			name: `${readableName(left)}: Not Asked by This Agent`,
			value: left,
			description:
				'Left from the agent picked before. This agent has no such answer; the list below shows what it asks.',
		});
	}
	return described;
}
