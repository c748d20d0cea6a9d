import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readCollectionName } from '../../helpers/input/parameters';
import { unwrapRecord } from '../../helpers/records/records';
import { apiRequest } from '../../transport/request';
import { collectionNameProperty } from './collection.descriptions';

const properties: INodeProperties[] = [
	collectionNameProperty({ displayName: 'Name', description: 'The name of the new collection' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['memoryCollection'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const name = readCollectionName(this, itemIndex);
	// Not in the public docs, but used by public client code: POST /memory-collections {name}.
	const body = (await apiRequest(this, {
		method: 'POST',
		path: '/memory-collections',
		body: { name },
		itemIndex,
	})) as IDataObject;
	return this.helpers.returnJsonArray(unwrapRecord(body, 'collection'));
}
