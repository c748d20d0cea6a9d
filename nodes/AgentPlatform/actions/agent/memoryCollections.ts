import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';

import { numericIdFrom } from '../../helpers/parameters';
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

/** The collection IDs of the option, checked before any request; empty when none is given. */
export function readMemoryCollections(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const entries = ctx.getNodeParameter(
		'options.memoryCollections.collections',
		itemIndex,
		[],
	) as IDataObject[];
	const ids = entries.map((entry) =>
		Number(
			numericIdFrom(
				ctx.getNode(),
				entry.collection as INodeParameterResourceLocator,
				'memory collection',
				itemIndex,
			),
		),
	);
	return [...new Set(ids)];
}
