import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { readNumericId } from '../input/parameters';

/** A platform record that operations name by an ID parameter: where it lives and how errors name it. */
export interface RecordKind {
	/** The node parameter holding its ID. */
	parameter: string;
	/** Its name in an error about the parameter, e.g. "The file is empty". */
	label: string;
	/** Its collection's path; the record is `<path>/<id>`. */
	path: string;
	/** Its name in a platform error, when not the label. */
	resource?: string;
}

export const AGENT: RecordKind = { parameter: 'agentId', label: 'agent', path: '/agents' };
export const FILE: RecordKind = { parameter: 'fileId', label: 'file', path: '/files' };
export const MEMORY: RecordKind = { parameter: 'memoryId', label: 'memory', path: '/memories' };
export const COLLECTION: RecordKind = {
	parameter: 'collectionId',
	label: 'collection',
	path: '/memory-collections',
	resource: 'memory collection',
};

/** Reads the item's ID of a record, checked (a whole number) before any request. */
export function readRecordId(ctx: IExecuteFunctions, kind: RecordKind, itemIndex: number): string {
	return readNumericId(ctx, kind.parameter, kind.label, itemIndex);
}

/**
 * One request about the record the item names, e.g. GET /files/501; `subpath` goes on from the
 * record (e.g. `/process`). `id` when the operation read it already (to check it before its other
 * parameters). Resolves to the record's checked ID and the platform's answer.
 */
export async function requestRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: RecordKind,
	request: { method: IHttpRequestMethods; subpath?: string; body?: IDataObject; id?: string },
): Promise<{ id: string; answer: IDataObject }> {
	const id = request.id ?? readRecordId(ctx, kind, itemIndex);
	const answer = (await apiRequest(ctx, {
		method: request.method,
		path: `${kind.path}/${id}${request.subpath ?? ''}`,
		...(request.body ? { body: request.body } : {}),
		resource: `${kind.resource ?? kind.label} ${id}`,
		itemIndex,
	})) as IDataObject;
	return { id, answer };
}

/** The record an answer wraps under `key` (e.g. `{ memory: {…} }`), or the answer itself. */
export function unwrapRecord(answer: IDataObject, key: string): IDataObject {
	return (answer[key] as IDataObject | undefined) ?? answer;
}
