/**
 * An input item's binary, ready to upload: everything that can be checked without the platform
 * is checked here (`prepareUpload`: the binary property exists, the file name has a supported
 * extension, the size is within 200 MB), so a refused file sends nothing. Sending it is
 * upload.ts's job; waiting for its processing, fileProcessing.ts's.
 */
import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OpenSource } from '../../transport/multipart';
import { inItem } from '../input/parameters';

/** The platform's largest file (spec: Limits, "200 MB"), in bytes. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

/** The extensions the platform accepts (spec: POST /files, Supported file types). */
export const SUPPORTED_EXTENSIONS: readonly string[] = [
	'txt',
	'doc',
	'docx',
	'csv',
	'pdf',
	'xls',
	'xlsx',
	'ppt',
	'pptx',
	'jpg',
	'jpeg',
	'png',
	'gif',
	'bmp',
	'svg',
	'tiff',
	'webp',
	'mp4',
	'avi',
	'mov',
	'mkv',
	'wmv',
	'flv',
	'mp3',
	'wav',
	'aac',
	'ogg',
	'flac',
	'm4a',
	'bas',
	'bat',
	'xml',
	'css',
	'dart',
	'html',
	'htm',
	'inc',
	'js',
	'json',
	'kt',
	'lua',
	'pas',
	'php',
	'pl',
	'ps1',
	'py',
	'r',
	'sh',
	'vsd',
	'sql',
	'swift',
	'ts',
	'vb',
	'vba',
	'yml',
	'yaml',
	'md',
];

/**
 * Read size from n8n's binary store while uploading: fewer reads than the default 64 KiB, for a
 * few MB more in flight; 1 MiB chunks took 38 MB more in one run (test/bench/upload-memory.ts).
 */
const UPLOAD_CHUNK_BYTES = 256 * 1024;

export interface UploadOptions {
	/** Process the file after upload (spends credits). */
	process?: boolean;
	/** Overrides the binary's file name. */
	fileName?: string;
	/** Overrides the binary's MIME type. */
	mimeType?: string;
}

/** What the local checks look at. */
export interface UploadFacts {
	fileName: string;
	/** Bytes. */
	size: number;
	binaryPropertyName: string;
	itemIndex: number;
}

/** A checked file, ready to be sent. */
export interface PreparedUpload extends UploadFacts {
	mimeType: string;
	/** Opens the bytes: n8n's binary store as a stream, or the in-memory buffer. */
	open: OpenSource;
}

export function extensionOf(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Rounded up, so that a file just over the limit does not read as "200.0 MB". */
function megabytes(bytes: number): string {
	return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`;
}

/**
 * The platform's rules on one file, checked locally: a supported extension and at most 200 MB.
 * Throws a NodeOperationError naming the file, the binary property and the item.
 */
export function checkUploadable(node: INode, file: UploadFacts): void {
	const { fileName, size, binaryPropertyName, itemIndex } = file;
	const where = `binary property "${binaryPropertyName}", item ${itemIndex + 1}`;
	const extension = extensionOf(fileName);
	if (!SUPPORTED_EXTENSIONS.includes(extension)) {
		throw new NodeOperationError(
			node,
			extension
				? `The platform does not accept .${extension} files: "${fileName}" cannot be uploaded (${where})`
				: `The file name "${fileName}" has no extension, so the platform would refuse it (${where})`,
			{
				itemIndex,
				description: `The platform accepts these file types: ${SUPPORTED_EXTENSIONS.join(', ')}. If the file is one of them under another name, set the option "File Name" (e.g. report.pdf).`,
			},
		);
	}
	if (size > MAX_UPLOAD_BYTES) {
		throw new NodeOperationError(
			node,
			`The file "${fileName}" is ${megabytes(size)}: the platform accepts at most 200 MB per file (${where})`,
			{
				itemIndex,
				description: `The limit is ${MAX_UPLOAD_BYTES} bytes; this file has ${size}. Split or compress it first.`,
			},
		);
	}
}

function inputBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
): IBinaryData {
	const name = binaryPropertyName.trim();
	if (!name) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(`The Input Binary Field is empty`, itemIndex),
			{
				itemIndex,
				description: 'Give the name of the binary property holding the file, e.g. data.',
			},
		);
	}
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const binary = binaries[name];
	if (!binary) {
		const present = Object.keys(binaries);
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(`The item has no binary property "${name}"`, itemIndex),
			{
				itemIndex,
				description: present.length
					? `Its binary properties are: ${present.join(', ')}. Set the Input Binary Field to one of them.`
					: 'The item carries no binary data at all: read or download the file in an earlier node.',
			},
		);
	}
	return binary;
}

interface Source {
	size: number;
	open: OpenSource;
}

/** A binary in n8n's binary store: its exact size from the store, opened as a stream when read. */
async function storedSource(ctx: IExecuteFunctions, id: string): Promise<Source | undefined> {
	const { fileSize } = await ctx.helpers.getBinaryMetadata(id);
	if (!Number.isSafeInteger(fileSize) || fileSize < 0) return undefined; // no exact size: read it whole
	// Opened when the request reads the body, and again on each retry.
	return {
		size: fileSize,
		open: async () => await ctx.helpers.getBinaryStream(id, UPLOAD_CHUNK_BYTES),
	};
}

/** A binary kept in memory (n8n 1.x's default mode): the buffer it already is. */
async function bufferSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
): Promise<Source> {
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	return { size: buffer.length, open: async () => buffer };
}

/**
 * Everything about one input binary that the upload needs, with the local checks done; sends
 * nothing. The size is exact: from n8n's binary store when the binary lives there, else the
 * in-memory buffer's length.
 */
export async function prepareUpload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
	options: Omit<UploadOptions, 'process'> = {},
): Promise<PreparedUpload> {
	const binary = inputBinary(ctx, itemIndex, binaryPropertyName);
	const property = binaryPropertyName.trim();
	const fileName =
		options.fileName?.trim() ||
		binary.fileName?.trim() ||
		(binary.fileExtension ? `${property}.${binary.fileExtension}` : property);
	const mimeType = options.mimeType?.trim() || binary.mimeType || 'application/octet-stream';

	const { size, open } =
		(binary.id ? await storedSource(ctx, binary.id) : undefined) ??
		(await bufferSource(ctx, itemIndex, property));
	checkUploadable(ctx.getNode(), { fileName, size, binaryPropertyName: property, itemIndex });
	return { fileName, mimeType, size, binaryPropertyName: property, itemIndex, open };
}

/**
 * Time allowed until the other side answers an upload: the request's whole body travels in that
 * time, so it grows with the size (at least 0.5 MB/s).
 */
export function uploadTimeoutMs(size: number): number {
	return 60_000 + Math.ceil(size / (512 * 1024)) * 1000;
}
