/**
 * The faults a test turns on (EmulatorFaults in types.ts), decided for one request: those answered
 * instead of handling it (a hang, a reset, a 429 from the rate limiter, a 5xx, an HTML 502), and
 * those applied after it took effect (the answer lost to a reset or a 524, a 5xx, malformed JSON).
 */
import { STATUS_CODES } from 'node:http';

import { CLOUDFLARE_524_HTML, cutAfterProcessing } from './gateway';
import type { Reply } from './http';
import type { RateVerdict } from './rateLimiter';
import type { EmulatorServices } from './services';
import type { EmulatorFaults } from './types';

const HTML_502 =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** What a fault answers instead of the handler's reply. */
export type FaultAnswer =
	| { kind: 'hang' }
	| { kind: 'reset'; note: string }
	| { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
	| { kind: 'raw'; status: number; text: string; headers: Record<string, string>; note?: string }
	| { kind: 'malformed'; text: string };

/** The faults of one request: its method decides whether they apply (`faultMethods`). */
export class RequestFaults {
	readonly f: EmulatorFaults;
	private readonly targeted: boolean;

	constructor(
		private readonly core: EmulatorServices,
		private readonly method: string,
	) {
		this.f = core.faults;
		this.targeted = !this.f.faultMethods || this.f.faultMethods.includes(method);
	}

	private chance(rate: number | undefined): boolean {
		return this.targeted && !!rate && rate > 0 && Math.random() < rate;
	}

	/** Answered instead of handling the request; `limited` is the rate limiter's verdict. */
	before(limited: RateVerdict | null): FaultAnswer | null {
		const f = this.f;
		if (this.chance(f.hangRate)) return { kind: 'hang' };
		if (this.chance(f.resetConnectionRate)) return { kind: 'reset', note: 'reset' };
		if (limited && !limited.ok) {
			const retryAfter = f.retryAfterSeconds ?? limited.retryAfterSeconds;
			const headers = { ...limited.headers };
			if (f.retryAfterSeconds !== undefined)
				headers['Retry-After'] = String(Math.max(0, Math.ceil(retryAfter)));
			return {
				kind: 'json',
				status: 429,
				body: { error: 'Rate limit exceeded', retry_after: retryAfter },
				headers,
			};
		}
		if (!f.serverErrorAfterProcessing && this.chance(f.serverErrorRate)) return this.serverError();
		if (this.chance(f.htmlErrorRate))
			return { kind: 'raw', status: 502, text: HTML_502, headers: { 'Content-Type': 'text/html' } };
		return null;
	}

	/** Applied once the request took effect: the answer the client gets instead of `reply`. */
	after(reply: Reply): FaultAnswer | null {
		const cut =
			reply.kind === 'json' && reply.status < 300
				? cutAfterProcessing(this.core, this.method)
				: null;
		if (cut === 'reset') return { kind: 'reset', note: 'carried out, then reset' };
		if (cut === 524) {
			return {
				kind: 'raw',
				status: 524,
				text: CLOUDFLARE_524_HTML,
				headers: { 'Content-Type': 'text/html; charset=UTF-8' },
				note: '524 (carried out, answer lost)',
			};
		}
		if (this.f.serverErrorAfterProcessing && this.chance(this.f.serverErrorRate)) {
			if (reply.kind === 'sse') reply.abandon?.();
			return this.serverError();
		}
		if (reply.kind === 'json' && this.chance(this.f.malformedJsonRate)) {
			const full = JSON.stringify(reply.body);
			return { kind: 'malformed', text: full.slice(0, Math.max(1, Math.floor(full.length / 2))) };
		}
		return null;
	}

	private serverError(): FaultAnswer {
		const status = this.f.serverErrorStatus;
		return { kind: 'json', status, body: { message: STATUS_CODES[status] ?? 'Server Error' } };
	}
}
