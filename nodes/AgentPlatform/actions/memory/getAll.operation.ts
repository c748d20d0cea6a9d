import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyItems, PAGE_LIMITS } from '../../helpers/records/lists';
import { readOptionalNumericId } from '../../helpers/input/parameters';
import { returnAllLimitProperties } from '../common.descriptions';
import { collectionLocator } from '../memoryCollection/collection.descriptions';

const properties: INodeProperties[] = [
	collectionLocator({
		name: 'collectionId',
		required: false,
		description:
			'Only memories of this collection. Leave empty for the memories of every collection.',
	}),
	...returnAllLimitProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memory'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const collectionId = readOptionalNumericId(this, 'collectionId', 'collection', itemIndex);
	const qs: IDataObject = collectionId ? { collection_id: collectionId } : {};
	return await getManyItems(
		this,
		itemIndex,
		{ method: 'GET', path: '/memories', qs },
		{ maxPerPage: PAGE_LIMITS.memories, itemsKey: 'memories' },
	);
}
