import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { credentialsOf } from '../../transport/credentials';
import { downloadFromOtherHost, type Download } from '../../transport/otherHost';
import { apiRequestFull } from '../../transport/request';
import { inItem } from '../input/parameters';

/**
 * Files that image and video agents produce (`generated_files` on a run), downloaded into the
 * item's binary properties `data`, `data_1`, … Their shape is documented nowhere: an entry may be
 * a URL string or an object whose URL is `url`, `download_url` or `file_url`, named by `name` or
 * `filename`, typed by `mime_type`; whatever else it carries stays in the JSON. See
 * docs/generated-files.md.
 */
export interface GeneratedFile {
	url: string;
	fileName?: string;
	mimeType?: string;
	/** The entry as the item's JSON shows it: the platform's fields, always with `url`. */
	record: IDataObject;
}

const URL_FIELDS = ['url', 'download_url', 'file_url'];
const NAME_FIELDS = ['name', 'filename', 'file_name'];
const TYPE_FIELDS = ['mime_type', 'mimeType', 'content_type'];

/** Time allowed for one download, counted while bytes still arrive. */
export const DOWNLOAD = { timeoutMs: 5 * 60_000 };

function firstString(record: IDataObject, fields: string[]): string | undefined {
	for (const field of fields) {
		const value = record[field];
		if (typeof value === 'string' && value.trim()) return value.trim();
	}
	return undefined;
}

/** The run's generated files, whatever shape each entry has; entries without a URL are left out. */
export function generatedFilesOf(response: IDataObject): GeneratedFile[] {
	const raw = response.generated_files;
	const entries = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
	const files: GeneratedFile[] = [];
	for (const entry of entries) {
		if (typeof entry === 'string' && entry.trim()) {
			files.push({ url: entry.trim(), record: { url: entry.trim() } });
		} else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
			const record = entry as IDataObject;
			const url = firstString(record, URL_FIELDS);
			if (!url) continue;
			files.push({
				url,
				fileName: firstString(record, NAME_FIELDS),
				mimeType: firstString(record, TYPE_FIELDS),
				record: { url, ...record },
			});
		}
	}
	return files;
}

/** `data`, `data_1`, `data_2`, … as n8n's own nodes name several binaries of one item. */
export function binaryPropertyName(index: number): string {
	return index === 0 ? 'data' : `data_${index}`;
}

/** The last segment of the URL's path, decoded: the file's name when the platform gives none. */
function fileNameFromUrl(url: URL, index: number): string {
	const last = url.pathname.split('/').filter(Boolean).pop();
	try {
		if (last) return decodeURIComponent(last);
	} catch {
		return last ?? `file_${index + 1}`;
	}
	return `file_${index + 1}`;
}

function contentTypeOf(headers: Record<string, unknown>): string | undefined {
	const value = headers['content-type'] ?? headers['Content-Type'];
	const type = typeof value === 'string' ? value.split(';')[0].trim() : '';
	return type && type !== 'application/octet-stream' ? type : undefined;
}

/**
 * Downloads every generated file of the run into the item, streamed into n8n's binary store
 * (prepareBinaryData reads the response body as it arrives, so memory stays flat in
 * filesystem/S3 mode). Only http(s) URLs are fetched; URLs under the credential's Base URL go
 * through the authenticated request function, any other host through n8n's unauthenticated
 * helper. A failed download fails the item, naming the file and the run.
 */
export async function downloadGeneratedFiles(
	ctx: IExecuteFunctions,
	response: IDataObject,
	itemIndex: number,
): Promise<{ binary: IBinaryKeyData; files: IDataObject[] }> {
	const files = generatedFilesOf(response);
	const binary: IBinaryKeyData = {};
	const records: IDataObject[] = [];
	if (!files.length) return { binary, files: records };
	// only URLs under the credential's Base URL get the API key
	const root = (await credentialsOf(ctx)).baseUrl;
	const runId = String(response.id ?? '?');
	for (const [index, file] of files.entries()) {
		let url: URL | undefined;
		try {
			// A path without a host is on the platform.
			url = new URL(file.url, `${root}/`);
		} catch {
			url = undefined;
		}
		const label = file.fileName ?? (url ? fileNameFromUrl(url, index) : file.url);
		const where = `the generated file "${label}" of run ${runId}`;
		if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(`Cannot download ${where}: its address is not an http(s) URL`, itemIndex),
				{
					itemIndex,
					description: `Only http:// and https:// addresses are fetched. The platform gave: ${file.url.slice(0, 200)}`,
				},
			);
		}
		let download: Download;
		try {
			const href = url.href;
			download = href.startsWith(`${root}/`)
				? await apiRequestFull(ctx, {
						method: 'GET',
						path: href.slice(root.length),
						stream: true,
						headers: { Accept: '*/*' },
						timeoutMs: DOWNLOAD.timeoutMs,
						resource: where,
						itemIndex,
					})
				: await downloadFromOtherHost(ctx, href, DOWNLOAD.timeoutMs);
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(`Could not download ${where}`, itemIndex),
				{
					itemIndex,
					description: `${(error as Error).message}. The run itself succeeded: fetch it again later with Agent Response → Get and the ID ${runId}, with "Download Generated Files" on.`,
				},
			);
		}
		const property = binaryPropertyName(index);
		const fileName = file.fileName ?? fileNameFromUrl(url, index);
		const mimeType = file.mimeType ?? contentTypeOf(download.headers);
		try {
			binary[property] = await ctx.helpers.prepareBinaryData(
				download.body as Buffer,
				fileName,
				mimeType,
			);
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), inItem(`Could not store ${where}`, itemIndex), {
				itemIndex,
				description: `${(error as Error).message}. The download broke off or n8n could not write the file.`,
			});
		}
		records.push({ ...file.record, binary_property: property });
	}
	return { binary, files: records };
}

/**
 * The hook for operations with the option "Download Generated Files": adds the run's files to
 * the (single) output item as binaries and lists them in its JSON under `generated_files`.
 */
export async function withGeneratedFiles(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	response: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const wanted = ctx.getNodeParameter(
		'options.downloadGeneratedFiles',
		itemIndex,
		false,
	) as boolean;
	if (!wanted || !items.length) return items;
	const { binary, files } = await downloadGeneratedFiles(ctx, response, itemIndex);
	if (!files.length) return items;
	const [first, ...rest] = items;
	return [
		{
			...first,
			json: { ...first.json, generated_files: files },
			binary: { ...(first.binary ?? {}), ...binary },
		},
		...rest,
	];
}
