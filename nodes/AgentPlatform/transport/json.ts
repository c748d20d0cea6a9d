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

/** Reads the start of a streamed error body, so a failed stream still yields the platform's words. */
export async function readStreamedBody(body: unknown): Promise<unknown> {
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') {
		return body;
	}
	const decoder = new TextDecoder();
	let text = '';
	for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
		text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
		if (text.length > 65_536) break;
	}
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
