import type { IDataObject } from 'n8n-workflow';

/**
 * The one reader of the wait a platform asks for, in milliseconds: the body's `retry_after`
 * (seconds, as the platform's 429 sends it), else the `Retry-After` header in seconds or as an
 * HTTP date. Undefined when the answer asks for nothing.
 */
export function retryAfterMs(
	body: unknown,
	headers: Record<string, unknown> = {},
): number | undefined {
	const fromBody =
		body && typeof body === 'object' ? Number((body as IDataObject).retry_after) : Number.NaN;
	if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody * 1000;
	const header = headers['retry-after'] ?? headers['Retry-After'];
	if (header === undefined || header === null || String(header).trim() === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(header));
	return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
