/**
 * Who sends next: one line of waiting requests, first come, first served, so that none can starve.
 * A request refused with 429, and an editor lookup (one request someone is waiting on), go to the
 * front. Only the request at the front waits for the pace; the others wait for their turn, which
 * the request leaving the front hands on, or for their execution's cancel signal.
 */
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignal } from '../cancellation';
import type { PlatformContext } from '../types';

export interface Waiter {
	wake?: () => void;
}

export class TurnQueue {
	private readonly line: Waiter[] = [];

	get length(): number {
		return this.line.length;
	}

	/** A new waiter, at the front or at the end of the line. */
	join(first: boolean): Waiter {
		const me: Waiter = {};
		if (first) this.line.unshift(me);
		else this.line.push(me);
		return me;
	}

	isFront(me: Waiter): boolean {
		return this.line[0] === me;
	}

	/** `me` leaves the line; when it was at the front, the next one is woken. */
	leave(me: Waiter): void {
		const index = this.line.indexOf(me);
		if (index >= 0) this.line.splice(index, 1);
		if (index === 0) this.line[0]?.wake?.();
	}

	/** Resolves when `me` is at the front; rejects when its execution is cancelled. */
	async turn(ctx: PlatformContext, me: Waiter): Promise<void> {
		const signal = cancelSignal(ctx);
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				me.wake = undefined;
				reject(new NodeOperationError(ctx.getNode(), 'The execution was canceled'));
			};
			me.wake = () => {
				me.wake = undefined;
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			if (signal?.aborted) onAbort();
			else signal?.addEventListener('abort', onAbort, { once: true });
		});
	}
}
