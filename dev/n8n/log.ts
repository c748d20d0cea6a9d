/** The tooling's progress lines on stderr. */
let logPrefix = 'e2e';

/** Progress lines on stderr, prefixed "[e2e]" (or what setLogPrefix says, e.g. for npm start). */
export function log(message: string): void {
	process.stderr.write(`[${logPrefix}] ${message}\n`);
}
export function setLogPrefix(prefix: string): void {
	logPrefix = prefix;
}

/** The time since `since` (a Date.now()) for a progress line: "12.3 s". */
export function secondsSince(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** The last `lines` lines of a log's text, headed by its name: what an error quotes of a process. */
export function tailOf(name: string, text: string, lines: number): string {
	const kept = text.trimEnd().split('\n').slice(-lines);
	return `--- ${name} (last ${kept.length} lines) ---\n${kept.join('\n')}\n---`;
}
