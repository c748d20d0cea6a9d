import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inItem, numericIdParameter } from '../../helpers/parameters';

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
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: 'A collection ID is a whole number, e.g. 3',
						},
					},
				],
			},
		],
	};
}

/** An optional collection: undefined when left empty, else its checked numeric ID. */
export function optionalCollectionId(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): string | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const value = typeof raw === 'object' && raw !== null ? (raw as { value?: unknown }).value : raw;
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	return numericIdParameter(ctx, name, 'collection', itemIndex);
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

/** The collection name, checked not to be empty before anything is sent. */
export function collectionNameParameter(ctx: IExecuteFunctions, itemIndex: number): string {
	const name = String(ctx.getNodeParameter('name', itemIndex, '') ?? '').trim();
	if (!name) {
		throw new NodeOperationError(ctx.getNode(), inItem(`The collection name is empty`, itemIndex), {
			itemIndex,
			description: 'Give the collection a name.',
		});
	}
	return name;
}
