/** The tooling's progress lines on stderr. */
let logPrefix = 'e2e';

/** Progress lines on stderr, prefixed "[e2e]" (or what setLogPrefix says, e.g. for npm start). */
export function log(message: string): void {
	process.stderr.write(`[${logPrefix}] ${message}\n`);
}
export function setLogPrefix(prefix: string): void {
	logPrefix = prefix;
}
