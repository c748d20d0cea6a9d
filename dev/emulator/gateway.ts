/**
 * Faults of the production gateway in front of the platform (docs/platform-assumptions.md):
 * Cloudflare ends a request its origin has not answered within its timeout (100 s by default)
 * with an HTML 524 page, while the origin goes on with the work (an execute keeps running); and
 * an origin that answers status 200 with an `{"error": …}` body; and a POST carried out whose answer
 * is lost on the way (a cut connection, or a 524 page at once).
 */
import type { EmulatorServices } from './services';
import type { Reply } from './http';

export const CLOUDFLARE_524_HTML =
	'<!DOCTYPE html>\n<html lang="en-US"><head><title>api.example.test | 524: A timeout occurred</title></head>\n' +
	'<body><div id="cf-error-details"><h1>A timeout occurred</h1><span class="cf-error-code">Error code 524</span>\n' +
	'<p>The origin web server timed out responding to this request.</p>\n' +
	'<p>Cloudflare Ray ID: 0000000000000000</p></div></body></html>\n';

export type GatewayOutcome = { kind: 'reply'; reply: Reply } | { kind: 'timeout' };

/**
 * Races the handler with the gateway's timeout (faults.gatewayTimeoutSeconds, virtual seconds).
 * The handler is not stopped: the run it started goes on, as it does behind the real gateway.
 * Streamed answers are not timed out (their first bytes come at once).
 */
export function underGateway(
	core: EmulatorServices,
	handling: Promise<Reply>,
): Promise<GatewayOutcome> {
	const seconds = core.faults.gatewayTimeoutSeconds;
	const replied = handling.then((reply): GatewayOutcome => ({ kind: 'reply', reply }));
	if (seconds === null || seconds === undefined || seconds < 0) return replied;
	return new Promise((resolve, reject) => {
		let settled = false;
		const timer = core.clock.after(seconds, () => {
			if (settled) return;
			settled = true;
			resolve({ kind: 'timeout' });
		});
		replied.then(
			(outcome) => {
				if (settled) {
					if (outcome.kind === 'reply' && outcome.reply.kind === 'sse') outcome.reply.abandon?.();
					return;
				}
				settled = true;
				core.clock.cancel(timer);
				resolve(outcome);
			},
			(error) => {
				if (settled) return;
				settled = true;
				core.clock.cancel(timer);
				reject(error);
			},
		);
	});
}

/** faults.okErrorBody: a JSON answer to a POST replaced by status 200 and `{"error": …}` (after processing). */
export function okErrorBody(core: EmulatorServices, method: string, reply: Reply): Reply {
	const words = core.faults.okErrorBody;
	if (!words || method !== 'POST' || reply.kind !== 'json') return reply;
	return { kind: 'json', status: 200, body: { error: words } };
}

/** faults.cutAfterProcessing: what replaces the answer to a POST that took effect, if anything. */
export function cutAfterProcessing(core: EmulatorServices, method: string): 'reset' | 524 | null {
	const cut = core.faults.cutAfterProcessing;
	const targeted = !core.faults.faultMethods || core.faults.faultMethods.includes(method);
	return cut && method === 'POST' && targeted ? cut : null;
}
