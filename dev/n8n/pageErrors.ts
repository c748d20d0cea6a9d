/**
 * What went wrong inside an editor page, for a failed browser step (`step` in browser.ts) to name:
 * the page's uncaught errors with their stacks, its console errors, n8n's refusals of its REST
 * calls, and what n8n logged of a 500.
 */
import type { Page } from 'playwright-core';

/** What went wrong inside each page: the last ten, and how many there were in all. */
const pageErrors = new WeakMap<Page, { last: string[]; count: number }>();

/**
 * Keeps what went wrong inside the page, for a failed step to name: the editor's uncaught errors
 * (with their stacks), its console errors, and n8n's answers of 400 and over to its REST calls (a
 * toast on the screenshot shows a message, not where it came from), with what n8n logged of a 500
 * (its stack: the answer has none in production mode).
 */
export function watchPageErrors(page: Page, serverLog?: () => string): void {
	const errors = { last: [] as string[], count: 0 };
	pageErrors.set(page, errors);
	const keep = (what: string, limit = 1500) => {
		errors.count++;
		errors.last.push(what.slice(0, limit));
		if (errors.last.length > 10) errors.last.shift();
	};
	page.on('pageerror', (error) => keep(`uncaught: ${distinctLines(error.stack ?? error.message)}`));
	page.on('console', (message) => {
		if (message.type() === 'error') keep(`console: ${distinctLines(message.text())}`);
	});
	page.on('response', (response) => {
		// a refused request (400, 404: a lookup that fails) leaves the editor showing nothing new
		if (response.status() < 400 || !/\/rest\//.test(response.url())) return;
		const what = `n8n answered ${response.status()} to ${response.request().method()} ${new URL(response.url()).pathname}`;
		response.text().then(
			(body) =>
				keep(`${what}: ${body}${response.status() >= 500 ? loggedAt(serverLog, body) : ''}`, 6000),
			() => keep(what),
		);
	});
}

/** What n8n logged last of an error answer's message, and the stack lines under it. */
function loggedAt(serverLog: (() => string) | undefined, body: string): string {
	let message: unknown;
	try {
		message = (JSON.parse(body) as { message?: unknown }).message;
	} catch {
		return '';
	}
	if (!serverLog || typeof message !== 'string' || !message) return '';
	const lines = serverLog().split('\n');
	let at = lines.length - 1;
	while (at >= 0 && !lines[at].includes(message)) at--;
	if (at < 0) return '';
	let end = at + 1;
	while (end < lines.length && /^\s+at /.test(lines[end])) end++;
	return `\nn8n logged:\n${distinctLines(lines.slice(at, end).join('\n'))}`;
}

/** A stack's lines, each once, with how often it came: a runaway recursion's cycle and its entry. */
function distinctLines(stack: string): string {
	const counts = new Map<string, number>();
	for (const line of stack.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
	return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line)).join('\n');
}

/** How many errors the page has had so far. */
export function pageErrorCount(page: Page): number {
	return pageErrors.get(page)?.count ?? 0;
}

/** The page's errors since it had `count` of them (the last ten at most). */
export function pageErrorsSince(page: Page, count: number): string[] {
	const errors = pageErrors.get(page) ?? { last: [], count: 0 };
	const fresh = Math.min(errors.count - count, errors.last.length);
	return fresh > 0 ? errors.last.slice(-fresh) : [];
}
