import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { PlatformContext } from './types';

/** Longest single sleep: a cancelled execution stops waiting within this. */
const WAIT_SLICE_MS = 250;

/** The execution's cancel signal, where the context has one (node runs; not load options). */
export function cancelSignal(ctx: PlatformContext): AbortSignal | undefined {
	const withSignal = ctx as Partial<IExecuteFunctions>;
	return typeof withSignal.getExecutionCancelSignal === 'function'
		? withSignal.getExecutionCancelSignal()
		: undefined;
}

export function throwIfCancelled(ctx: PlatformContext): void {
	if (cancelSignal(ctx)?.aborted) {
		throw new NodeOperationError(ctx.getNode(), 'The execution was canceled');
	}
}

/** Waits with n8n-workflow's sleep in short slices, so a cancelled execution stops waiting at once. */
export async function waitFor(ctx: PlatformContext, ms: number): Promise<void> {
	const until = Date.now() + ms;
	for (;;) {
		throwIfCancelled(ctx);
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(left, WAIT_SLICE_MS));
	}
}
