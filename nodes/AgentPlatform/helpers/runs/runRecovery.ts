/**
 * A start call (POST /agents/{id}/execute) that may have reached the platform but got no usable
 * answer: a connection cut after the body left, the node's own timeout, or a gateway page
 * (502/504/524). It is never sent again; the run it may have started is looked up in
 * GET /agent-responses instead (docs/never-lose-a-run.md).
 */
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { textOf } from '../agents/messages';
import { waitFor } from '../../transport/cancellation';
import { neverSent } from '../../transport/retryPolicy';

/** Mutable so that tests can shorten the waits. */
export const RECOVERY = {
	/** How many looks at the agent's newest runs, paced by pauseMs. */
	looks: 3,
	pauseMs: 2_000,
	/** Runs created up to this long before the call started still count (clock skew). */
	clockSkewMs: 10_000,
	perPage: 30,
};

/** Gateway answers that come while the platform may still be working on the request. */
const GATEWAY_STATUSES = new Set(['502', '504', '524']);

/** Whether a failed start call may have started a run (a plain 4xx/5xx refusal did not). */
export function mayHaveStarted(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode;
	// A 2xx whose body was cut short or was a web page: the platform took the request.
	if (code) return GATEWAY_STATUSES.has(code) || code.startsWith('2');
	const response = (error.errorResponse ?? {}) as IDataObject;
	if (typeof response.detail !== 'string') return false; // not a network failure
	return !neverSent(typeof response.networkError === 'string' ? response.networkError : undefined);
}

function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	return keysA.every((key) => sameJson((a as IDataObject)[key], (b as IDataObject)[key]));
}

/** Whether a run's recorded input is what was sent: the last user message, or the answers' JSON. */
export function inputMatches(run: IDataObject, body: IDataObject): boolean {
	const input = run.input;
	if (typeof input !== 'string') return false;
	const messages = Array.isArray(body.messages) ? (body.messages as IDataObject[]) : [];
	if (messages.length) {
		const users = messages.filter((message) => message.role === 'user');
		const last = users.length ? users[users.length - 1] : messages[messages.length - 1];
		return input === textOf(last.content, '');
	}
	try {
		return sameJson(JSON.parse(input), body.answers);
	} catch {
		return false;
	}
}

interface Lookup {
	agentId: string;
	body: IDataObject;
	/** When the start call was made (this machine's clock). */
	startedAt: number;
	itemIndex: number;
}

/** One look at the agent's newest runs (one page, a second one if the window goes on). */
async function candidates(ctx: IExecuteFunctions, lookup: Lookup): Promise<IDataObject[]> {
	const since = lookup.startedAt - RECOVERY.clockSkewMs;
	const found: IDataObject[] = [];
	for (let page = 1; page <= 2; page++) {
		const answer = (await apiRequest(ctx, {
			method: 'GET',
			path: '/agent-responses',
			qs: { agent_id: lookup.agentId, sort: 'desc', per_page: RECOVERY.perPage, page },
			resource: `the runs of agent ${lookup.agentId}`,
			itemIndex: lookup.itemIndex,
		})) as IDataObject;
		const runs = Array.isArray(answer.data) ? (answer.data as IDataObject[]) : [];
		const recent = runs.filter((run) => Date.parse(String(run.created_at)) >= since);
		found.push(...recent.filter((run) => inputMatches(run, lookup.body)));
		// Newest first: a page that reaches back before the window ends the search.
		if (recent.length < runs.length || runs.length < RECOVERY.perPage) break;
	}
	return found;
}

function lostRunError(
	ctx: IExecuteFunctions,
	lookup: Lookup,
	cause: NodeApiError,
	ids: string[],
): NodeApiError {
	const agent = `agent ${lookup.agentId}`;
	const how = `To find it, use Agent Response → Get Many filtered by ${agent}, newest first.`;
	const message = ids.length
		? `The start of the run got no answer, and ${ids.length} runs of ${agent} could be it (${ids.join(', ')})`
		: 'The start of the run got no answer, and the platform may have started it';
	const found = ids.length
		? `The runs started at that moment with the same input are ${ids.join(', ')}: the node cannot tell which one is this item's.`
		: "No run with this input showed up among the agent's newest runs.";
	return new NodeApiError(ctx.getNode(), (cause.errorResponse ?? {}) as JsonObject, {
		message,
		description: `${cause.message}. Nothing was sent again, so the agent did not run twice. ${found} ${how}`,
		httpCode: cause.httpCode ?? undefined,
		itemIndex: lookup.itemIndex,
	});
}

/** The one run the cut start call made, or an error that says where to look; never a new start. */
export async function recoverStartedRun(
	ctx: IExecuteFunctions,
	cause: NodeApiError,
	lookup: Lookup,
): Promise<IDataObject> {
	let found: IDataObject[] = [];
	for (let look = 1; look <= RECOVERY.looks; look++) {
		// The run may take a moment to show up in the list.
		if (look > 1) await waitFor(ctx, RECOVERY.pauseMs);
		found = await candidates(ctx, lookup);
		if (found.length) break;
	}
	if (found.length === 1) return found[0];
	throw lostRunError(
		ctx,
		lookup,
		cause,
		found.map((run) => String(run.id)),
	);
}
