import type { INodeProperties } from 'n8n-workflow';

/** Option of Execute and Agent Response → Get: the run's generated files as n8n binaries. */
export const downloadGeneratedFilesProperty: INodeProperties = {
	displayName: 'Download Generated Files',
	name: 'downloadGeneratedFiles',
	type: 'boolean',
	default: false,
	description:
		"Whether to download the files the run produced (images, videos) into the item's binary properties data, data_1, and so on. The API key is sent only to addresses under the credential's Base URL.",
};
