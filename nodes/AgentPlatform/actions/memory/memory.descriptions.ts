import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { inItem } from '../../helpers/parameters';
import { optionalCollectionId } from '../memoryCollection/collection.descriptions';

/** The platform stores at most this many characters per memory. */
export const MAX_MEMORY_CHARS = 32000;

export function memoryTextProperty(description: string): INodeProperties {
	return {
		displayName: 'Memory',
		name: 'memory',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. The customer prefers to be contacted by email',
		description: `${description} At most ${MAX_MEMORY_CHARS} characters`,
	};
}

export const memoryIdProperty: INodeProperties = {
	displayName: 'Memory ID',
	name: 'memoryId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 123',
	description: 'The ID of the memory, as returned by Create or Get Many',
};

/**
 * The memory text, checked before anything is sent: not empty, and at most 32000 characters
 * (counted as the platform counts them: one per Unicode character, not per UTF-16 unit).
 */
export function memoryTextParameter(ctx: IExecuteFunctions, itemIndex: number): string {
	const memory = String(ctx.getNodeParameter('memory', itemIndex, '') ?? '');
	if (!memory.trim()) {
		throw new NodeOperationError(ctx.getNode(), inItem(`The Memory is empty`, itemIndex), {
			itemIndex,
			description: 'Give the text the memory should hold.',
		});
	}
	const length = [...memory].length;
	if (length > MAX_MEMORY_CHARS) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(
				`The Memory is ${length} characters long; the platform stores at most ${MAX_MEMORY_CHARS}`,
				itemIndex,
			),
			{ itemIndex, description: 'Shorten the text, or split it into several memories.' },
		);
	}
	return memory;
}

/** Create's and Update's body: the checked text, and the collection's ID when one is picked. */
export function readMemoryBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { body: IDataObject; collectionId?: string } {
	const memory = memoryTextParameter(ctx, itemIndex);
	const collectionId = optionalCollectionId(ctx, 'collectionId', itemIndex);
	return {
		body: { memory, ...(collectionId ? { collection_id: Number(collectionId) } : {}) },
		collectionId,
	};
}
