import type { IExecuteFunctions } from 'n8n-workflow';

/** True when a Chat Trigger or a Webhook in "Streaming" response mode started the workflow. */
export function isStreamingToCaller(ctx: IExecuteFunctions): boolean {
	return (
		typeof ctx.isStreaming === 'function' &&
		typeof ctx.sendChunk === 'function' &&
		ctx.isStreaming()
	);
}

/**
 * Passes text on to the workflow's caller as it arrives (begin, item…, end), when n8n streams
 * the workflow's answer; does nothing otherwise.
 */
export function forwardStream(ctx: IExecuteFunctions, itemIndex: number) {
	const active = isStreamingToCaller(ctx);
	let begun = false;
	return {
		send(text: string) {
			if (!active || !text) return;
			if (!begun) ctx.sendChunk('begin', itemIndex);
			begun = true;
			ctx.sendChunk('item', itemIndex, text);
		},
		end() {
			if (active && begun) ctx.sendChunk('end', itemIndex);
		},
	};
}
