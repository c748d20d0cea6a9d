/**
 * What went wrong inside an editor page, for a failed browser step (`step` in browser.ts) to name:
 * the page's uncaught errors with their stacks, its console errors, n8n's refusals of its REST
 * calls, and what n8n logged of a 500; and the REST calls the editor made (a lookup it never
 * asked for shows as one missing).
 */
import type { Page, Request } from 'playwright-core';

/** The last entries of one kind, and how many there were in all. */
class Trail {
	private readonly last: string[] = [];
	count = 0;

	constructor(private readonly size: number) {}

	add(entry: string): void {
		this.count++;
		this.last.push(entry);
		if (this.last.length > this.size) this.last.shift();
	}

	/** The entries since there were `count` of them (the last `size` at most). */
	since(count: number): string[] {
		const fresh = Math.min(this.count - count, this.last.length);
		return fresh > 0 ? this.last.slice(-fresh) : [];
	}
}

/** Each page's errors (the last ten) and REST calls (the last fifteen). */
const trails = new WeakMap<Page, { errors: Trail; calls: Trail }>();

function trailsOf(page: Page): { errors: Trail; calls: Trail } {
	let found = trails.get(page);
	if (!found) trails.set(page, (found = { errors: new Trail(10), calls: new Trail(15) }));
	return found;
}

/**
 * Keeps what went wrong inside the page, for a failed step to name: the editor's uncaught errors
 * (with their stacks), its console errors, and n8n's answers of 400 and over to its REST calls (a
 * toast on the screenshot shows a message, not where it came from), with what n8n logged of a 500
 * (its stack: the answer has none in production mode).
 */
export function watchPageErrors(page: Page, serverLog?: () => string): void {
	const { errors } = trailsOf(page);
	const keep = (what: string, limit = 1500) => errors.add(what.slice(0, limit));
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

/** A request to n8n's REST API, not its push channel (/rest/push, open for as long as the page is). */
export function isRestCall(request: Request): boolean {
	return /\/rest\/(?!push)/.test(request.url());
}

/**
 * Keeps each REST call the page makes (not its push channel): when it was answered, what it was,
 * how long n8n took, and n8n's answer. A lookup (dynamic node parameters) also names the node's
 * method it calls and the resource locators' values it sent (`agentId=id:99999`): what the lookup
 * was asked for, whatever the field shows.
 */
export function watchRestCalls(page: Page): void {
	const { calls } = trailsOf(page);
	const keep = (request: Request, answer: string) => {
		if (!isRestCall(request)) return;
		const { pathname } = new URL(request.url());
		const took = request.timing().responseEnd;
		calls.add(
			`${new Date().toISOString().slice(11, 23)} ${request.method()} ${pathname}${lookupOf(request)}: ${answer}${took > 0 ? ` in ${Math.round(took)} ms` : ''}`,
		);
	};
	page.on('requestfinished', (request) => {
		request.response().then(
			(response) => keep(request, String(response?.status() ?? 'no answer')),
			() => keep(request, 'no answer'),
		);
	});
	page.on('requestfailed', (request) => keep(request, `failed: ${request.failure()?.errorText}`));
}

/** ` (methodName agentId=id:99999)` for n8n's dynamic parameters; '' for other calls. */
function lookupOf(request: Request): string {
	let body: { methodName?: unknown; currentNodeParameters?: unknown } | null;
	try {
		body = request.postDataJSON() as typeof body;
	} catch {
		return ''; // a body that is not JSON
	}
	if (typeof body?.methodName !== 'string') return '';
	const located = Object.entries((body.currentNodeParameters ?? {}) as Record<string, unknown>)
		.filter(([, value]) => (value as { __rl?: unknown } | null)?.__rl === true)
		.map(([name, value]) => {
			const { mode, value: given } = value as { mode?: unknown; value?: unknown };
			return ` ${name}=${String(mode)}:${JSON.stringify(given)}`;
		});
	return ` (${body.methodName}${located.join('')})`;
}

/** Where the page's trails stand now, for `pageSince`. */
export function pageMark(page: Page): { errors: number; calls: number } {
	const { errors, calls } = trailsOf(page);
	return { errors: errors.count, calls: calls.count };
}

/** The page's errors and REST calls since `mark`. */
export function pageSince(
	page: Page,
	mark: { errors: number; calls: number },
): { errors: string[]; calls: string[] } {
	const { errors, calls } = trailsOf(page);
	return { errors: errors.since(mark.errors), calls: calls.since(mark.calls) };
}
