import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { timeoutProperty } from '../common.descriptions';

/** Picks a platform file from a searchable list (newest first) or by its ID. */
export const fileLocator: INodeProperties = {
	displayName: 'File',
	name: 'fileId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The platform file to work with',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a file…',
			typeOptions: { searchListMethod: 'searchFiles', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 501',
			hint: 'A whole number',
		},
	],
};

/** How long to wait for processing, shown where the node waits for it. */
export function processingTimeout(show: IDisplayOptions['show']): INodeProperties {
	return timeoutProperty(
		'How long to wait for the platform to finish processing before giving up (the file stays uploaded)',
		10,
		show,
	);
}
