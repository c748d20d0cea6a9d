import type { INodeProperties } from 'n8n-workflow';

import { MAX_MEMORY_CHARS } from '../../helpers/input/parameters';

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
