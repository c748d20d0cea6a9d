/**
 * What went wrong inside an editor page, for a failed browser step (`step` in browser.ts) to name:
 * the page's uncaught errors with their stacks, its console errors, n8n's refusals of its REST
 * calls, and what n8n logged of a 500; and the REST calls the editor made (a lookup it never
 * asked for shows as one missing).
 */
import type { Page, Request } from 'playwright-core';

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

/** The page's REST calls to n8n: the last fifteen, and how many there were in all. */
const restCalls = new WeakMap<Page, { last: string[]; count: number }>();

/** Keeps each REST call the page makes (not its push channel): when, what, and n8n's answer. */
export function watchRestCalls(page: Page): void {
	const calls = { last: [] as string[], count: 0 };
	restCalls.set(page, calls);
	const keep = (request: Request, answer: string) => {
		const { pathname } = new URL(request.url());
		if (!pathname.includes('/rest/') || pathname.endsWith('/rest/push')) return;
		let method = '';
		try {
			// n8n's dynamic parameters name the node's method they call
			const name = (request.postDataJSON() as { methodName?: unknown } | null)?.methodName;
			if (typeof name === 'string') method = ` (${name})`;
		} catch {
			// a body that is not JSON
		}
		calls.count++;
		calls.last.push(
			`${new Date().toISOString().slice(11, 23)} ${request.method()} ${pathname}${method}: ${answer}`,
		);
		if (calls.last.length > 15) calls.last.shift();
	};
	page.on('requestfinished', (request) => {
		request.response().then(
			(response) => keep(request, String(response?.status() ?? 'no answer')),
			() => keep(request, 'no answer'),
		);
	});
	page.on('requestfailed', (request) => keep(request, `failed: ${request.failure()?.errorText}`));
}

/** How many REST calls the page has made so far. */
export function restCallCount(page: Page): number {
	return restCalls.get(page)?.count ?? 0;
}

/** The page's REST calls since it had made `count` of them (the last fifteen at most). */
export function restCallsSince(page: Page, count: number): string[] {
	const calls = restCalls.get(page) ?? { last: [], count: 0 };
	const fresh = Math.min(calls.count - count, calls.last.length);
	return fresh > 0 ? calls.last.slice(-fresh) : [];
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
