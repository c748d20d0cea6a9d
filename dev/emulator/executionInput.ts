/**
 * The checks of an execute or chat-completions body, with Laravel's validation words: messages
 * and their roles, answers against the agent's questions, file ids, root id.
 */
import { checkProductionAnswer } from './agentForm';
import { isPresent, parseId, validation } from './http';
import type { Ctx } from './http';
import type { StoredAgent } from './types';

export const MAX_FILES_PER_EXECUTION = 5;

export interface Message {
	role: string;
	content: unknown;
}

export function validateMessages(value: unknown, roles: string[], field = 'messages'): Message[] {
	if (!Array.isArray(value)) throw validation(field, `The ${field} field must be an array.`);
	value.forEach((m, i) => {
		if (!m || typeof m !== 'object' || Array.isArray(m)) {
			throw validation(`${field}.${i}`, `The ${field}.${i} field must be an array.`);
		}
		const role = (m as Record<string, unknown>).role;
		if (!isPresent(role))
			throw validation(`${field}.${i}.role`, `The ${field}.${i}.role field is required.`);
		if (typeof role !== 'string' || !roles.includes(role)) {
			throw validation(`${field}.${i}.role`, `The selected ${field}.${i}.role is invalid.`);
		}
		const content = (m as Record<string, unknown>).content;
		if (content === undefined || content === null) {
			throw validation(`${field}.${i}.content`, `The ${field}.${i}.content field is required.`);
		}
		if (typeof content !== 'string' && !Array.isArray(content)) {
			throw validation(
				`${field}.${i}.content`,
				`The ${field}.${i}.content field must be a string.`,
			);
		}
	});
	return value as Message[];
}

export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((p) =>
				p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
					? (p as { text: string }).text
					: '',
			)
			.filter(Boolean)
			.join(' ');
	}
	return '';
}

export function lastUserMessage(messages: Message[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		if (messages[i].role === 'user') return contentText(messages[i].content);
	}
	return messages.length ? contentText(messages[messages.length - 1].content) : '';
}

export function selectValue(v: unknown): string | null {
	if (typeof v === 'string') return v;
	if (typeof v === 'number' && Number.isFinite(v)) return String(v);
	return null;
}

/** Validates one answer against its question; returns the normalized value. */
export function checkAnswer(agent: StoredAgent, name: string, value: unknown): unknown {
	const q = agent.questions.find((x) => x.name === name);
	if (!q) return value;
	if (value === undefined || value === null) return value;
	const production = checkProductionAnswer(q, value);
	if (production) return production.value;
	switch (q.type) {
		case 'number': {
			if (typeof value === 'number' && Number.isFinite(value)) return value;
			if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
				return Number(value);
			throw validation(name, `The ${name} field must be a number.`);
		}
		case 'array':
			if (!Array.isArray(value)) throw validation(name, `The ${name} field must be an array.`);
			return value;
		case 'text':
			if (typeof value !== 'string' && typeof value !== 'number')
				throw validation(name, `The ${name} field must be a string.`);
			return String(value);
		default:
			return value;
	}
}

export function checkFileIds(ctx: Ctx, value: unknown): number[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) throw validation('file_ids', 'The file ids field must be an array.');
	if (value.length > MAX_FILES_PER_EXECUTION) {
		throw validation(
			'file_ids',
			`The file ids field must not have more than ${MAX_FILES_PER_EXECUTION} items.`,
		);
	}
	return value.map((v, i) => {
		const id = typeof v === 'number' ? v : typeof v === 'string' ? parseId(v) : null;
		if (id === null || !Number.isInteger(id) || !ctx.core.state.files.has(id)) {
			throw validation(`file_ids.${i}`, `The selected file_ids.${i} is invalid.`);
		}
		return id;
	});
}

export function checkRootId(ctx: Ctx, agent: StoredAgent, value: unknown): number | null {
	if (value === undefined || value === null || value === '') return null;
	const id = typeof value === 'number' ? value : typeof value === 'string' ? parseId(value) : null;
	const root = id === null ? undefined : ctx.core.state.runs.get(id);
	if (!root || root.template_id !== agent.id)
		throw validation('root_id', 'The selected root id is invalid.');
	return root.root_id;
}
