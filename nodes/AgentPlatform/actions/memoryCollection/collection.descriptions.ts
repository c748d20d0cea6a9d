import type { INodeProperties } from 'n8n-workflow';

/**
 * Picks a memory collection from a searchable list or by ID. Used wherever a collection is
 * named: required where the operation works on one, optional where it only narrows or moves.
 */
export function collectionLocator(options: {
	name: string;
	displayName?: string;
	required: boolean;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName ?? 'Collection',
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a collection…',
				typeOptions: { searchListMethod: 'searchCollections', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3',
				hint: 'A whole number',
			},
		],
	};
}

/** The name of a collection to create or rename to. */
export function collectionNameProperty(options: {
	displayName: string;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Customer preferences',
		description: options.description,
	};
}
