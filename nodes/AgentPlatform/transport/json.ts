import { sleep } from 'n8n-workflow';

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

const LATE: unique symbol = Symbol('late');

/**
 * Reads the start of a streamed error body, so a failed stream still yields the platform's words.
 * A body that breaks, or stalls past `withinMs`, yields what arrived: it never holds the caller.
 */
export async function readStreamedBody(body: unknown, withinMs: number): Promise<unknown> {
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') {
		return body;
	}
	const iterator = (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
	const until = Date.now() + withinMs;
	let reading = true;
	// no timers in community nodes: short sleeps notice the end of the time given
	const late = (async (): Promise<typeof LATE> => {
		while (reading && Date.now() < until)
			await sleep(Math.max(1, Math.min(50, until - Date.now())));
		return LATE;
	})();
	const decoder = new TextDecoder();
	let text = '';
	try {
		while (text.length <= 65_536) {
			const pending = iterator.next();
			pending.catch(() => undefined); // a body that breaks after the time given is not our concern
			const next = await Promise.race([pending, late]);
			if (next === LATE || next.done) break;
			text +=
				typeof next.value === 'string' ? next.value : decoder.decode(next.value, { stream: true });
		}
	} catch {
		// the body broke: what arrived is all there is
	} finally {
		reading = false;
		void iterator.return?.().catch(() => undefined);
	}
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
