/**
 * What the corpus of ordinary answers (ordinary-answers.*.ts) is made of: the two tools bound
 * beside each answer, named as n8n users name theirs, and the way an answer is written down.
 */
import type { BoundTool } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { TOOLS } from './toolCallCorpus';

const text = { type: 'string' };

/** Two tools bound, as an AI Agent with a few tools has them. */
export const TOOL_SETS = {
	/** The call corpus's own pair (a Code tool and a numbers tool). */
	math: TOOLS,
	weather: [
		{
			name: 'get_weather',
			description: 'Gets the current weather of a city',
			schema: {
				type: 'object',
				properties: { city: text, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
				required: ['city'],
			},
		},
		{
			name: 'search_docs',
			description: "Searches the company's documentation",
			schema: {
				type: 'object',
				properties: { query: text, limit: { type: 'number' } },
				required: ['query'],
			},
		},
	],
	mail: [
		{
			name: 'send_email',
			description: 'Sends an email',
			schema: {
				type: 'object',
				properties: { to: text, subject: text, body: text },
				required: ['to', 'subject', 'body'],
			},
		},
		{
			name: 'create_ticket',
			description: 'Creates a support ticket',
			schema: {
				type: 'object',
				properties: { title: text, priority: { type: 'string', enum: ['low', 'high'] } },
				required: ['title'],
			},
		},
	],
} satisfies Record<string, BoundTool[]>;

export type ToolSet = keyof typeof TOOL_SETS;

/** An answer a model gives with two tools bound and calls neither: `answer` is the whole reply. */
export interface OrdinaryAnswer {
	about: string;
	tools: ToolSet;
	answer: string;
}

/**
 * An answer as written in the source: the text as is (backslashes stay, as String.raw keeps
 * them), with `ˋ` for a backtick and `$\{` for `${`, so that fences and template literals of the
 * answers need no escapes.
 */
export function written(strings: TemplateStringsArray, ...values: unknown[]): string {
	return String.raw(strings, ...values)
		.replace(/ˋ/g, '`')
		.replace(/\$\\\{/g, '${');
}

export const answer = (about: string, tools: ToolSet, text: string): OrdinaryAnswer => ({
	about,
	tools,
	answer: text,
});
