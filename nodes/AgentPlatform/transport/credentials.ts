import { createHash } from 'node:crypto';

import type { ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Pace } from './pace';
import { cleanBaseUrl } from './baseUrl';
import { paceFor } from './pace';
import type { PlatformContext } from './types';
import { oncePerRun } from './runCache';

export const CREDENTIAL_TYPE = 'agentPlatformApi';

/** Requests per second when the credential does not say (saved before the field existed). */
const DEFAULT_REQUESTS_PER_SECOND = 1;

/** What a node run needs from its credential, read once. */
export interface RunCredentials {
	baseUrl: string;
	/** A digest of the API key and Base URL: names what is kept per credential in the process. */
	key: string;
	decrypted: ICredentialsDecrypted;
	/** The pace shared by every request sent with this API key to this Base URL in the process. */
	pace: Pace;
}

// The credential cannot change during a node run: read it once per run, not once per request.
// In n8n each read is a database lookup and a decryption, which httpRequestWithAuthentication
// would otherwise repeat for every request (about 1 ms each, measured); it takes the decrypted
// credential as an option instead.
export function credentialsOf(ctx: PlatformContext): Promise<RunCredentials> {
	return oncePerRun(ctx, 'credential', () => readCredentials(ctx));
}

/** The pace of the node run's credential. */
export async function paceOf(ctx: PlatformContext): Promise<Pace> {
	return (await credentialsOf(ctx)).pace;
}

/**
 * What the process keeps per credential is named by a digest of its API key and cleaned Base URL
 * (cleanBaseUrl): the key itself is never kept as a name of anything.
 */
export function paceKeyOf(apiKey: unknown, baseUrl: string): string {
	return createHash('sha256')
		.update(`${String(apiKey ?? '').trim()}\n${baseUrl}`)
		.digest('hex');
}

function readRequestsPerSecond(value: unknown): number {
	const rate = Number(value);
	return Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_REQUESTS_PER_SECOND;
}

async function readCredentials(ctx: PlatformContext): Promise<RunCredentials> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const url = cleanBaseUrl(data.baseUrl);
	if (!/^https?:\/\/[^/]+/i.test(url)) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Base URL in the "Agent Platform API" credential must start with http:// or https://',
		);
	}
	const selected = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	const paceKey = paceKeyOf(data.apiKey, url);
	return {
		baseUrl: url,
		key: paceKey,
		decrypted: { id: selected?.id ?? '', name: selected?.name ?? '', type: CREDENTIAL_TYPE, data },
		pace: paceFor(paceKey, readRequestsPerSecond(data.requestsPerSecond)),
	};
}
