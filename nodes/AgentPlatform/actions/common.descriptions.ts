import type { INodeProperties } from 'n8n-workflow';

/** Picks an agent from a searchable list, by ID, or by a URL that ends in /agents/<id>. */
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
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An agent ID is a whole number, e.g. 12' },
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://app.example.com/agents/12',
			extractValue: { type: 'regex', regex: '/agents/(\\d+)' },
			validation: [
				{
					type: 'regex',
					properties: { regex: '.*/agents/\\d+.*', errorMessage: 'The URL must contain /agents/<id>' },
				},
			],
		},
	],
};

export const returnAllProperty: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export function limitProperty(maxValue?: number): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, ...(maxValue ? { maxValue } : {}) },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	};
}
