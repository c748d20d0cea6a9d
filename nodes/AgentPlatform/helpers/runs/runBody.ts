/**
 * The one writer of a run's body (POST /agents/{id}/execute). Older and newer revisions of the API
 * read an agent's fields from `answers` or from the top level: real clients send both, so every
 * body is written here, its fields in both places, the attached files and memory collections
 * beside them. The start call adds only its flags (runStart.ts).
 */
import type { IDataObject } from 'n8n-workflow';

export interface RunExtras {
	fileIds?: number[];
	memoryCollections?: number[];
}

export function runBody(fields: IDataObject, extras: RunExtras = {}): IDataObject {
	const body: IDataObject = { answers: { ...fields }, ...fields };
	if (extras.fileIds?.length) body.file_ids = extras.fileIds;
	if (extras.memoryCollections?.length) body.memory_collections = extras.memoryCollections;
	return body;
}

/** The agent's fields of a body written by runBody. */
export function runFields(body: IDataObject): IDataObject {
	return { ...((body.answers ?? {}) as IDataObject) };
}

/** What a body attaches besides the fields. */
export function runExtras(body: IDataObject): RunExtras {
	return {
		fileIds: body.file_ids as number[] | undefined,
		memoryCollections: body.memory_collections as number[] | undefined,
	};
}
