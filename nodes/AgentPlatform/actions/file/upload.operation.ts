import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { waitUntilProcessed } from '../../helpers/files/fileProcessing';
import { minutesToMs } from '../../helpers/input/parameters';
import { uploadBinary } from '../../helpers/files/upload';
import { platformNotice } from '../common.descriptions';
import { processingTimeout } from './file.descriptions';

const properties: INodeProperties[] = [
	platformNotice(
		'uploadLimitsNotice',
		'The platform takes files of at most 200 MB with a known extension (PDF, Office, text, images, audio, video, code…) and stores at most 30 files: delete files to make room',
	),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the file to be uploaded',
		description: 'The binary property of the input item that holds the file (one file per item)',
	},
	{
		displayName: 'Process',
		name: 'process',
		type: 'options',
		default: 'no',
		description:
			'Whether the platform should process the file after the upload (processing spends credits)',
		options: [
			{
				name: 'Do Not Process',
				value: 'no',
				description: 'Only store the file (status "waiting", no credits spent)',
			},
			{
				name: 'Process',
				value: 'start',
				description: 'Start processing and return at once, while the file is still being processed',
			},
			{
				name: 'Wait Until Processed',
				value: 'wait',
				description: 'Process the file and return once the platform reports it completed',
			},
		],
	},
	processingTimeout({ process: ['wait'] }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'The file name and MIME type to send instead of those of the binary',
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. report.pdf',
				description:
					"The name to store the file under, instead of the binary's own. Its extension decides whether the platform accepts the file.",
			},
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'string',
				default: '',
				placeholder: 'e.g. application/pdf',
				description: "The content type to send, instead of the binary's own",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['upload'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const processing = this.getNodeParameter('process', itemIndex, 'no') as string;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const file = await uploadBinary(this, itemIndex, binaryPropertyName, {
		process: processing !== 'no',
		fileName: options.fileName as string | undefined,
		mimeType: options.mimeType as string | undefined,
	});
	if (processing !== 'wait') return this.helpers.returnJsonArray(file);
	const timeoutMs = minutesToMs(this.getNodeParameter('timeout', itemIndex, 10), 10);
	return this.helpers.returnJsonArray(await waitUntilProcessed(this, file, itemIndex, timeoutMs));
}
