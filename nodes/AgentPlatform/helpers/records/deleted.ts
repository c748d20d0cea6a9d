import type { IDataObject } from 'n8n-workflow';

/**
 * The one output of every Delete operation: the ID, whether the platform deleted it (false: it was
 * already gone, a 404 where that means success) and the platform's own words when it sent any.
 */
export function deletedItem(id: string | number, answer: unknown, deleted = true): IDataObject {
	const message = (answer as IDataObject | undefined)?.message;
	return {
		id: Number(id),
		deleted,
		...(deleted ? {} : { alreadyGone: true }),
		...(typeof message === 'string' ? { message } : {}),
	};
}
