import type { INodeProperties } from 'n8n-workflow';

/**
 * The chat model's hint, shown only while its output is not connected: n8n's editor hides a
 * notice of this container class on a node with an output connection (as on n8n's own models).
 */
export const connectModelNotice: INodeProperties = {
	displayName:
		'Connect this model to the Chat Model input of an AI Agent or a chain (Basic LLM Chain, Information Extractor, Text Classifier, …): it answers when that node runs, not on its own. Needs n8n 2.16 or later.',
	name: 'notice',
	type: 'notice',
	default: '',
	typeOptions: { containerClass: 'ndv-connection-hint-notice' },
};

/**
 * Shown while no agent is given. n8n 2.x empties a From List Agent when the node's credential
 * changes and the new credential's list (its first page) does not hold the agent: the form says
 * so, and Model, Tools and Temperature keep their values meanwhile (methods/loadOptions.ts).
 */
export const agentEmptiedNotice: INodeProperties = {
	displayName:
		"Pick the chat agent whose model answers. n8n empties the Agent when the node's credential changes and the new credential's list does not have the agent (another workspace, or a key the platform refuses): Model, Tools and Temperature are kept until it is picked again.",
	name: 'agentEmptiedNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { agentId: [''] } },
};

/** The chat model's Options. n8n's community lint wants literal defaults: a unit test keeps them
 * equal to MODEL_OPTION_DEFAULTS, which the calls use. */
export const modelOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Describe Tools to the Model',
			name: 'describeTools',
			type: 'boolean',
			default: true,
			description:
				"Whether tools connected to the AI Agent are described to the platform's model in the request, and its answers read back as tool calls. The platform has no function calling of its own; off, an AI Agent with tools fails with a plain error.",
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 2,
			description:
				'How many times a call the platform did not take (rate limit, connection failed before sending) is sent again. A call the platform took is never sent twice.',
		},
		{
			displayName: 'Stream Idle Timeout (Seconds)',
			name: 'idleTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'A streamed answer silent for this long is given up with an error',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description: 'How long one call of the model may take',
		},
	],
};
