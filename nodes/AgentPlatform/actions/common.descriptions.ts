import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Picks an agent from a searchable list, by ID, or by a URL with /agents/<id> in it. The node
 * checks and reads the typed ID itself (helpers/input/parameters.ts), with no `validation` or
 * `extractValue` regex: n8n (1.x and 2.x) runs those in a sandbox with a 250 ms wall-clock limit
 * at every execution's start, and a busy worker fails the whole run with "Regular expression
 * execution timed out" (docs/design.md).
 */
export const agentLocator: INodeProperties = {
	displayName: 'Agent',
	name: 'agentId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The agent to work with',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an agent…',
			typeOptions: { searchListMethod: 'searchAgents', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 12',
			hint: 'A whole number',
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://app.example.com/agents/12',
			hint: "A URL with /agents/ and the agent's number in it",
		},
	],
};

/** A notice in the form: a platform limit or consequence the user should know before running. */
export function platformNotice(name: string, text: string): INodeProperties {
	return { displayName: text, name, type: 'notice', default: '' };
}

export const returnAllProperty: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

/** The two orders a platform list can be asked for (`order`/`sort` = desc or asc). */
export const newestOldestOptions = [
	{ name: 'Newest First', value: 'desc' },
	{ name: 'Oldest First', value: 'asc' },
];

/** A list's Filters collection: "Only <things> that match all of these". */
export function filtersProperty(things: string, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: `Only ${things} that match all of these`,
		options,
	};
}

export function limitProperty(maxValue?: number): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, ...(maxValue ? { maxValue } : {}) },
		default: 50,
		placeholder: 'e.g. 50',
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	};
}

/** Every Get Many's pair: Return All, and the Limit shown while it is off. */
export const returnAllLimitProperties: INodeProperties[] = [returnAllProperty, limitProperty()];

/** How long an operation waits for the platform, in minutes (fractions allowed for quick tests). */
export function timeoutProperty(
	description: string,
	defaultMinutes = 10,
	show?: IDisplayOptions['show'],
): INodeProperties {
	return {
		displayName: 'Timeout (Minutes)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 0.1 },
		default: defaultMinutes,
		placeholder: `e.g. ${defaultMinutes}`,
		description,
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** How long a stream may stay silent before it is given up. */
export function idleTimeoutProperty(description: string): INodeProperties {
	return {
		displayName: 'Stream Idle Timeout (Seconds)',
		name: 'idleTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		placeholder: 'e.g. 30',
		description,
	};
}

/** A chat history entered message by message. */
export function historyProperty(roles: string[], description: string): INodeProperties {
	return {
		displayName: 'History',
		name: 'history',
		type: 'fixedCollection',
		placeholder: 'Add Message',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		description,
		options: [
			{
				displayName: 'Messages',
				name: 'messages',
				values: [
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'user',
						description: 'Who wrote the message',
						options: roles.map((role) => ({
							name: role[0].toUpperCase() + role.slice(1),
							value: role,
						})),
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
						placeholder: 'e.g. Hello!',
						description: 'The text of the message',
					},
				],
			},
		],
	};
}

/** A whole chat history as JSON, typically from an expression. */
export const historyJsonOption: INodeProperties = {
	displayName: 'History (JSON)',
	name: 'historyJson',
	type: 'json',
	default: '[]',
	placeholder: '[{"role": "user", "content": "Hello"}]',
	description:
		'Earlier messages as a JSON array of {role, content}, e.g. from an expression. Sent before the History and Message above.',
};

/**
 * The chat agent's own settings, each a dropdown loaded from the picked agent, first "Agent
 * Default" (sends nothing: the platform uses the agent's own). Temperature also takes any number
 * from 0 to 2, typed in its own field or from an expression.
 */
export const chatSettingsProperties: INodeProperties[] = [
	{
		// "… Name or ID": n8n's community package scanner requires it on a dynamic dropdown
		// (node-param-display-name-wrong-for-dynamic-options refuses the plain word)
		displayName: 'Model Name or ID',
		name: 'model',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getModels', loadOptionsDependsOn: ['agentId.value'] },
		default: '',
		description:
			'The model the chat agent should use: Agent Default sends none and the agent uses its own, or one of the agent\'s models. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Tools Name or ID',
		name: 'tools',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTools', loadOptionsDependsOn: ['agentId.value'] },
		default: '',
		description:
			'Which of the agent\'s tools it may use (or no-tools): Agent Default sends nothing and the agent uses its own setting. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Temperature Name or ID',
		name: 'temperature',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTemperatures', loadOptionsDependsOn: ['agentId.value'] },
		default: '',
		description:
			'How inventive the answer may be: Agent Default sends nothing, one of the agent\'s choices, or Custom for any number from 0 to 2. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Custom Temperature',
		name: 'temperatureValue',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
		default: 1,
		placeholder: 'e.g. 0.7',
		description: "A temperature from 0 (focused) to 2 (inventive), sent as the platform's text",
		displayOptions: { show: { temperature: ['custom'] } },
	},
];
