/** What an editor lookup is told when the platform's rate limit holds the key longer than it may wait. */
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext } from '../types';

/** An editor lookup would wait longer than it may: the platform's rate limit holds the key. */
export class PaceHeldError extends NodeOperationError {}

export function keyHeldError(ctx: PlatformContext, heldForMs: number): PaceHeldError {
	const seconds = Math.max(1, Math.ceil(heldForMs / 1000));
	return new PaceHeldError(
		ctx.getNode(),
		heldForMs > 0
			? `The platform's rate limit holds this API key for about ${seconds} more seconds`
			: "The platform's rate limit holds this API key: other requests with it are waiting to be sent",
		{
			description:
				'Other workflows using this credential were asked by the platform to wait. Try again when that time has passed.',
		},
	);
}
