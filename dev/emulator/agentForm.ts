/**
 * How production takes an execute request (docs/platform-assumptions.md), apart from the
 * spec-only engine: message roles (`system` refused, `developer` only first, `user` and
 * `assistant` alternating), the chat settings optional with the agent's defaults, questions with
 * a `default`, and the question types public clients show (textarea, multiselect, file, options
 * as `label:value` strings or `{label, value}` objects).
 */
import { isPresent, validation } from './http';
import type { Question, QuestionOption, StoredAgent } from './types';

/** Settings listed as required by GET /agents/{id} that execute nevertheless takes as optional. */
export const OPTIONAL_SETTINGS = ['model', 'tools', 'temperature'];
/** The platform's temperature when none is sent (current docs: "1"). */
export const DEFAULT_TEMPERATURE = '1';

export function optionValues(options: QuestionOption[] | undefined): string[] {
	return (options ?? []).map((o) => {
		if (o && typeof o === 'object') return String(o.value);
		const s = String(o);
		const colon = s.indexOf(':');
		return colon > 0 && colon < s.length - 1 ? s.slice(colon + 1).trim() : s;
	});
}

/** Production's rules on the roles of an execute conversation; throws a 422 with plain words. */
export function checkExecuteRoles(messages: Array<{ role: string }>): void {
	messages.forEach((m, i) => {
		if (m.role === 'system') {
			throw validation(
				`messages.${i}.role`,
				'The system role is not supported on execute. Using this role causes an error: send instructions as a developer message, first.',
			);
		}
		if (m.role === 'developer' && i > 0) {
			throw validation(
				`messages.${i}.role`,
				'A developer message is only allowed as the first message.',
			);
		}
		const prev = messages[i - 1];
		if (prev && prev.role === m.role) {
			throw validation(`messages.${i}.role`, 'User and assistant messages must alternate.');
		}
	});
}

/** The answer the platform uses when none is sent, if any. */
export function defaultAnswer(q: Question): unknown {
	if (q.default !== undefined && q.default !== null && q.default !== '') return q.default;
	if (q.name === 'temperature') return DEFAULT_TEMPERATURE;
	if (OPTIONAL_SETTINGS.includes(q.name)) return optionValues(q.options)[0];
	return undefined;
}

function temperature(value: unknown): string {
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	if (!Number.isFinite(n) || n < 0 || n > 2)
		throw validation('temperature', 'The temperature must be between 0 and 2.');
	return String(n);
}

/** Validates the answers of production's extra question types; undefined when q is not one of them. */
export function checkProductionAnswer(q: Question, value: unknown): { value: unknown } | undefined {
	if (q.name === 'temperature') return { value: temperature(value) };
	const values = optionValues(q.options);
	switch (q.type) {
		case 'select': {
			const s = typeof value === 'number' ? String(value) : value;
			if (typeof s !== 'string' || !values.includes(s))
				throw validation(q.name, `The selected ${q.name} is invalid.`);
			return { value: s };
		}
		case 'textarea':
			if (typeof value !== 'string')
				throw validation(q.name, `The ${q.name} field must be a string.`);
			return { value };
		case 'multiselect': {
			const parts = (Array.isArray(value) ? value.map(String) : String(value).split(','))
				.map((p) => p.trim())
				.filter(Boolean);
			if (values.length && parts.some((p) => !values.includes(p)))
				throw validation(q.name, `The selected ${q.name} is invalid.`);
			return { value: parts.join(',') };
		}
		case 'file':
			if (typeof value !== 'string' || !/^https?:\/\/\S+$/.test(value))
				throw validation(q.name, `The ${q.name} must be a valid URL.`);
			return { value };
		default:
			return undefined;
	}
}

/** Fills in the platform's defaults for unanswered questions and refuses missing required ones. */
export function applyDefaults(
	agent: StoredAgent,
	answers: Record<string, unknown>,
	required: (field: string) => Error,
): void {
	for (const q of agent.questions) {
		if (isPresent(answers[q.name])) continue;
		const fallback = defaultAnswer(q);
		if (fallback !== undefined) answers[q.name] = fallback;
		else if (q.required) throw required(q.name);
	}
}
