import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { JsonSchema } from './jsonValidation';
import { checkSchema, extractJson, schemaFromExample, validateJson } from './jsonValidation';
import { CORRECTION_OPENING } from './protocolWords';
import { inItem } from '../input/parameters';

/**
 * Output format "JSON" of Execute and Chat Completion: the platform has no JSON mode, so the node
 * asks for JSON in the message, extracts and validates the answer, and asks for a correction
 * (in the same session) while it is invalid. See docs/structured-output.md.
 */
export interface JsonRequest {
	schema: JsonSchema;
	/** Corrections asked for after the first answer, at most. */
	maxCorrections: number;
}

export const MAX_CORRECTIONS = 5;

function parseJsonParameter(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): unknown {
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(`The ${label} is not valid JSON`, itemIndex),
			{
				itemIndex,
				description: (error as Error).message,
			},
		);
	}
}

/** The JSON output settings of the item, checked before any request; undefined for text output. */
export function readJsonRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
): JsonRequest | undefined {
	if (ctx.getNodeParameter('outputFormat', itemIndex, 'text') !== 'json') return undefined;
	const schemaType = ctx.getNodeParameter('schemaType', itemIndex, 'fromJson') as string;
	let schema: JsonSchema;
	if (schemaType === 'manual') {
		const raw = parseJsonParameter(
			ctx,
			ctx.getNodeParameter('inputSchema', itemIndex, ''),
			'JSON Schema',
			itemIndex,
		);
		try {
			schema = checkSchema(raw);
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(`The JSON Schema cannot be used`, itemIndex),
				{
					itemIndex,
					description: (error as Error).message,
				},
			);
		}
	} else {
		const example = parseJsonParameter(
			ctx,
			ctx.getNodeParameter('jsonSchemaExample', itemIndex, ''),
			'JSON Example',
			itemIndex,
		);
		schema = schemaFromExample(example);
	}
	const attempts = Number(ctx.getNodeParameter('jsonCorrectionAttempts', itemIndex, 2));
	const maxCorrections = Number.isFinite(attempts)
		? Math.min(MAX_CORRECTIONS, Math.max(0, Math.floor(attempts)))
		: 2;
	return { schema, maxCorrections };
}

/** Added to the last user message of the request: what the answer must be. */
export function jsonInstruction(schema: JsonSchema): string {
	return (
		'Answer with JSON only: one JSON value, no text before or after it, that matches this JSON Schema:\n' +
		JSON.stringify(schema)
	);
}

/** The message asking for a corrected answer, naming each problem. */
export function correctionMessage(schema: JsonSchema, problems: string[]): string {
	return (
		`${CORRECTION_OPENING}. Problems:\n` +
		problems.map((problem) => `- ${problem}`).join('\n') +
		'\nAnswer again with the corrected JSON only, matching this JSON Schema:\n' +
		JSON.stringify(schema)
	);
}

/** Appends the instruction to the last user message (or adds one), keeping the roles' order. */
export function withJsonInstruction(
	messages: Array<{ role: string; content: string }>,
	schema: JsonSchema,
): Array<{ role: string; content: string }> {
	const instruction = jsonInstruction(schema);
	const last = messages[messages.length - 1];
	if (last?.role === 'user') {
		return [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n${instruction}` }];
	}
	return [...messages, { role: 'user', content: instruction }];
}

export interface Answer {
	/** The answer's text. */
	text: string;
	/** Credits the run spent; absent where the platform gives none (chat completions). */
	credits?: number;
	/** The record to output (a run, a completion). */
	record: IDataObject;
}

/**
 * Extracts and validates the first answer; while it is invalid and corrections are left, asks
 * `correct` for another answer (which continues the same conversation). Resolves the output
 * fields, or fails the item listing each problem by its path.
 */
export async function answerAsJson(
	ctx: IExecuteFunctions,
	request: JsonRequest,
	first: Answer,
	correct: (message: string, previous: Answer) => Promise<Answer>,
	itemIndex: number,
): Promise<IDataObject> {
	let answer = first;
	let credits = first.credits;
	const addCredits = (more?: number) => {
		if (more !== undefined) credits = (credits ?? 0) + more;
	};
	for (let attempt = 1; ; attempt++) {
		const extracted = extractJson(answer.text);
		const checked = extracted.ok ? validateJson(extracted.value, request.schema) : undefined;
		const problems = checked ? checked.problems : [(extracted as { problem: string }).problem];
		if (checked && !problems.length) {
			return {
				...answer.record,
				output_json: checked.value as IDataObject,
				output: answer.text,
				attempts: attempt,
				...(credits !== undefined ? { credits: Math.round(credits * 1e6) / 1e6 } : {}),
				coercions: checked.coercions,
			};
		}
		if (attempt > request.maxCorrections) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(
					`The agent's answer is not the JSON asked for, after ${attempt} attempt${attempt === 1 ? '' : 's'}`,
					itemIndex,
				),
				{
					itemIndex,
					description: `Problems in the last answer:\n${problems.map((problem) => `- ${problem}`).join('\n')}\n\n${credits !== undefined ? `Credits spent on all attempts: ${credits}. ` : ''}Raise "Correction Attempts", or make the schema or the message clearer.`,
				},
			);
		}
		answer = await correct(correctionMessage(request.schema, problems), answer);
		addCredits(answer.credits);
	}
}
