/**
 * Answers to an agent's questions, checked against its own form before anything is sent. Every
 * problem of an item is collected and reported in one error, so a user fixes them all at once.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AgentDefinition, AgentQuestion } from './definitions';
import { CHAT_SETTINGS, optionsOfQuestion, questionLabel, readableName } from './definitions';
import { inItem } from '../input/parameters';

/** The value of Model, Tools and Temperature that sends nothing: the agent's own default. */
export const AGENT_DEFAULT = '';
/** Temperature's value that shows the number field. */
export const CUSTOM_TEMPERATURE = 'custom';
/** The platform's temperature range (current docs: "between 0 and 2"). */
export const TEMPERATURE_RANGE = { min: 0, max: 2 };

interface Problem {
	message: string;
	hint?: string;
}

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		(Array.isArray(value) && value.length === 0)
	);
}

/** The platform takes temperature as a string ("0.7"); any number from 0 to 2 is accepted. */
function temperatureOf(raw: unknown): string | undefined {
	const text = String(raw).trim();
	const number = typeof raw === 'number' ? raw : Number(text);
	if (text === '' || !Number.isFinite(number)) return undefined;
	if (number < TEMPERATURE_RANGE.min || number > TEMPERATURE_RANGE.max) return undefined;
	return String(number);
}

function listOf(raw: unknown): string[] {
	const parts = Array.isArray(raw) ? raw : String(raw).split(',');
	return parts.map((part) => String(part).trim()).filter(Boolean);
}

/** One answer in the form the platform takes, or a problem with it. */
function checkAnswer(
	agent: AgentDefinition,
	question: AgentQuestion | undefined,
	name: string,
	raw: unknown,
): { value: unknown } | Problem {
	const options = optionsOfQuestion(question);
	const values = options.map((option) => option.value);
	const choose = (text: string) =>
		options.find((option) => option.value === text || option.name === text)?.value;
	if (name === 'temperature') {
		const temperature = temperatureOf(raw);
		if (temperature !== undefined) return { value: temperature };
		return {
			message: `The temperature must be a number from 0 to 2, not "${String(raw)}"`,
			hint: "Leave it at Agent Default to use the agent's own, or give e.g. 0.7.",
		};
	}
	const type = question?.type;
	if ((type === 'select' || type === 'multiselect') && options.length) {
		const given = type === 'multiselect' ? listOf(raw) : [String(raw).trim()];
		const chosen = given.map(choose);
		const wrong = given.filter((_, position) => chosen[position] === undefined);
		if (wrong.length) {
			return {
				message: `"${wrong.join(', ')}" is not one of the options of ${questionLabel(name)} for the agent "${agent.title}"`,
				hint: `Choose ${type === 'multiselect' ? 'among' : 'one of'}: ${values.join(', ')}`,
			};
		}
		// several choices travel as one comma-joined string, as public clients send them
		return { value: chosen.join(',') };
	}
	if (type === 'multiselect') return { value: listOf(raw).join(',') };
	if (type === 'number') {
		const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
		if (!Number.isFinite(number) || String(raw).trim() === '') {
			return {
				message: `The answer to ${questionLabel(name)} must be a number, not "${String(raw)}"`,
			};
		}
		return { value: number };
	}
	if (type === 'array' && !Array.isArray(raw)) {
		let value: unknown;
		try {
			value = typeof raw === 'string' ? JSON.parse(raw) : raw;
		} catch {
			return {
				message: `The answer to ${questionLabel(name)} must be a JSON array`,
				hint: 'For example ["first", "second"]',
			};
		}
		if (!Array.isArray(value)) {
			return { message: `The answer to ${questionLabel(name)} must be a JSON array` };
		}
		return { value };
	}
	if (type === 'file') {
		const url = String(raw).trim();
		if (!/^https?:\/\/\S+$/i.test(url)) {
			return {
				message: `The answer to ${questionLabel(name)} must be the URL of a file (http or https), not "${url}"`,
			};
		}
		return { value: url };
	}
	if (type === 'text' || type === 'textarea') return { value: String(raw) };
	return { value: raw };
}

/** Whether the agent runs without an answer to this question. */
function isOptional(question: AgentQuestion): boolean {
	return (
		!question.required ||
		question.name === 'messages' ||
		// the platform lists these as required but runs with the agent's own when none is sent
		CHAT_SETTINGS.includes(question.name) ||
		(question.default !== undefined && question.default !== null && question.default !== '')
	);
}

/**
 * Checks answers against the agent's own questions before anything is sent: required ones are
 * present (unless the question has a default), select values are among the agent's options,
 * numbers are numbers, arrays are arrays, files are URLs. Returns the answers in the platform's
 * types; every problem of the item is named in one error.
 */
export function checkAnswers(
	ctx: IExecuteFunctions,
	agent: AgentDefinition,
	answers: IDataObject,
	itemIndex: number,
): IDataObject {
	const checked: IDataObject = {};
	const problems: Problem[] = [];
	for (const [name, raw] of Object.entries(answers)) {
		if (isEmpty(raw)) continue;
		const result = checkAnswer(
			agent,
			agent.questions.find((q) => q.name === name),
			name,
			raw,
		);
		if ('value' in result) checked[name] = result.value as IDataObject[string];
		else problems.push(result);
	}
	for (const question of agent.questions) {
		// a wrong answer was named above; only a missing one is named here
		if (!isOptional(question) && isEmpty(answers[question.name])) {
			problems.push({
				message: `The agent "${agent.title}" needs an answer to ${questionLabel(question.name)}`,
				hint: question.description
					? `${readableName(question.name)}: ${question.description}`
					: undefined,
			});
		}
	}
	if (problems.length === 1) {
		throw new NodeOperationError(ctx.getNode(), inItem(problems[0].message, itemIndex), {
			itemIndex,
			description: problems[0].hint,
		});
	}
	if (problems.length > 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${inItem(`${problems.length} answers for the agent "${agent.title}" need fixing`, itemIndex)}: ` +
				problems.map((problem, n) => `${n + 1}) ${problem.message}`).join('; '),
			{
				itemIndex,
				description: problems
					.filter((problem) => problem.hint)
					.map((problem) => problem.hint)
					.join('. '),
			},
		);
	}
	return checked;
}

/**
 * Model, Tools and Temperature as chosen in the node: "Agent Default" sends nothing; a custom
 * temperature comes from its own number field.
 */
export function readChatSettings(
	ctx: Pick<IExecuteFunctions, 'getNodeParameter'>,
	itemIndex: number,
): IDataObject {
	const settings: IDataObject = {};
	for (const name of CHAT_SETTINGS) {
		let value = ctx.getNodeParameter(name, itemIndex, AGENT_DEFAULT) as IDataObject[string];
		if (name === 'temperature' && value === CUSTOM_TEMPERATURE) {
			value = ctx.getNodeParameter('temperatureValue', itemIndex, 1) as number;
		}
		if (!isEmpty(value)) settings[name] = value;
	}
	return settings;
}
