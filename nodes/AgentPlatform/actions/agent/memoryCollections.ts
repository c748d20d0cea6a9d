import type { INodeProperties } from 'n8n-workflow';

import { collectionLocator } from '../memoryCollection/collection.descriptions';

/** Execute's option: the memory collections the run may use, sent as `memory_collections`. */
export const memoryCollectionsProperty: INodeProperties = {
	displayName: 'Memory Collections',
	name: 'memoryCollections',
	type: 'fixedCollection',
	placeholder: 'Add Collection',
	typeOptions: { multipleValues: true },
	default: {},
	description: 'Memory collections the agent may use during the run, picked from the list or by ID',
	options: [
		{
			displayName: 'Collections',
			name: 'collections',
			values: [
				collectionLocator({
					name: 'collection',
					required: true,
					description: 'A memory collection the run may use',
				}),
			],
		},
	],
};
