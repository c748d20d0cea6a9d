import type { IExecuteFunctions, INode } from 'n8n-workflow';
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

/** The words n8n's users see when their execution was cancelled (n8n's own spelling). */
export const EXECUTION_CANCELED = 'The execution was canceled';

/** The error of a request or wait that stopped because its execution was cancelled. */
export function executionCanceled(node: INode): NodeOperationError {
	return new NodeOperationError(node, EXECUTION_CANCELED);
}

export function throwIfCancelled(ctx: PlatformContext): void {
	if (cancelSignal(ctx)?.aborted) throw executionCanceled(ctx.getNode());
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
