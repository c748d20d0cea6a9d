import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { MAX_CORRECTIONS } from '../helpers/output/structuredOutput';

/**
 * Output format "JSON" (Execute and Chat Completion), worded as n8n's Structured Output Parser
 * words its schema fields, so users recognise them. `show` limits them to the modes that wait
 * for the whole answer.
 */
export function structuredOutputProperties(show: IDisplayOptions['show']): INodeProperties[] {
	const json = { ...show, outputFormat: ['json'] };
	return [
		{
			displayName: 'Output Format',
			name: 'outputFormat',
			type: 'options',
			default: 'text',
			displayOptions: { show },
			description: 'Whether to return the answer as text, or as JSON checked against a schema',
			options: [
				{ name: 'Text', value: 'text', description: 'The answer as the agent wrote it' },
				{
					name: 'JSON',
					value: 'json',
					description:
						'Ask for JSON, extract it from the answer, validate it against the schema and ask for corrections in the same conversation',
				},
			],
		},
		{
			displayName: 'Schema Type',
			name: 'schemaType',
			type: 'options',
			noDataExpression: true,
			default: 'fromJson',
			displayOptions: { show: json },
			description: 'How to specify the schema of the JSON answer',
			options: [
				{
					name: 'Generate From JSON Example',
					value: 'fromJson',
					description:
						'Generate a schema from an example JSON object; every field of it is required',
				},
				{
					name: 'Define Using JSON Schema',
					value: 'manual',
					description: 'Define the JSON Schema yourself',
				},
			],
		},
		{
			displayName: 'JSON Example',
			name: 'jsonSchemaExample',
			type: 'json',
			typeOptions: { rows: 6 },
			default: '{\n\t"title": "A short title",\n\t"score": 8,\n\t"tags": ["one", "two"]\n}',
			displayOptions: { show: { ...json, schemaType: ['fromJson'] } },
			description:
				'An example of the JSON wanted: the answer must have the same fields, of the same types',
		},
		{
			displayName: 'JSON Schema',
			name: 'inputSchema',
			type: 'json',
			typeOptions: { rows: 8 },
			default:
				'{\n\t"type": "object",\n\t"properties": {\n\t\t"title": { "type": "string" },\n\t\t"score": { "type": "number" }\n\t},\n\t"required": ["title", "score"]\n}',
			displayOptions: { show: { ...json, schemaType: ['manual'] } },
			description: 'The JSON Schema (draft 2020-12) the answer must match',
		},
		{
			displayName: 'Correction Attempts',
			name: 'jsonCorrectionAttempts',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_CORRECTIONS, numberPrecision: 0 },
			default: 2,
			displayOptions: { show: json },
			description:
				'How many times to ask the agent to correct an answer that is not valid JSON for the schema. Each correction is a new run in the same conversation and spends credits.',
		},
	];
}
