/** The credential's Base URL as every request joins paths to it: trimmed, without a trailing slash. */
export function cleanBaseUrl(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
}
