import { deadlineRace, DUE } from './deadlineRace';

/**
 * A JSON answer that did not parse (n8n's client then gives its text), or a web page where JSON
 * was expected. An empty body, and plain text the platform may send on a delete, are fine.
 */
export function unparsedJson(body: unknown, headers: Record<string, unknown> | undefined): boolean {
	if (typeof body !== 'string') return false;
	const text = body.trim();
	const type = String(headers?.['content-type'] ?? '').toLowerCase();
	return text !== '' && (type.includes('json') || type.includes('html') || /^[[{<]/.test(text));
}

/**
 * Reads the start of a streamed error body, so a failed stream still yields the platform's words.
 * A body that breaks, or stalls past `withinMs`, yields what arrived: it never blocks the caller.
 */
export async function readStreamedBody(body: unknown, withinMs: number): Promise<unknown> {
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') {
		return body;
	}
	const iterator = (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
	const until = Date.now() + withinMs;
	const time = deadlineRace(
		() => Date.now() >= until,
		() => Math.max(1, Math.min(50, until - Date.now())),
	);
	const decoder = new TextDecoder();
	let text = '';
	try {
		while (text.length <= 65_536) {
			const next = await time.race(iterator.next());
			if (next === DUE || next.done) break;
			text +=
				typeof next.value === 'string' ? next.value : decoder.decode(next.value, { stream: true });
		}
	} catch {
		// the body broke: what arrived is all there is
	} finally {
		void time.stop();
		void iterator.return?.().catch(() => undefined);
	}
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
