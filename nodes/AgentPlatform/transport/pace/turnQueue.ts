/**
 * Who sends next: two lines of waiting requests, one per class of work (workClass.ts). The next
 * turn goes to interactive work (a person is waiting on it), except that bulk work keeps a share:
 * after PACING.bulkShareEvery − 1 interactive turns in a row while bulk waited, the next turn is
 * bulk's, so a busy chat cannot stop a nightly job. Within a line, the executions waiting take
 * turns, one request each (executionLine.ts), so that a chat waits about one request per other
 * execution waiting, not for another execution's whole paging. A request refused with 429, and an
 * editor lookup, go first. Only the request whose turn it is waits for the pace; the others wait
 * until the request leaving hands the turn on, or for their execution's cancel signal.
 */
import { cancelSignal, executionCanceled } from '../cancellation';
import type { PlatformContext } from '../types';
import { ExecutionLine, type Waiter } from './executionLine';
import { PACING } from './settings';
import type { ExecutionKey, WorkClass } from './workClass';

export type { Waiter } from './executionLine';

export class TurnQueue {
	private readonly lines: Record<WorkClass, ExecutionLine> = {
		interactive: new ExecutionLine(),
		bulk: new ExecutionLine(),
	};
	/** Turns interactive work took in a row while bulk work waited. */
	private interactiveRun = 0;

	get length(): number {
		return this.lines.interactive.length + this.lines.bulk.length;
	}

	/** Executions with requests waiting (each has an entry while it waits, none after). */
	get executions(): number {
		return this.lines.interactive.executions + this.lines.bulk.executions;
	}

	/** A new waiter of `execution`: first of all in its class's line, or in its execution's turn. */
	join(workClass: WorkClass, execution: ExecutionKey, first: boolean): Waiter {
		const me: Waiter = { workClass, execution };
		this.lines[workClass].join(me, first);
		return me;
	}

	/** How many requests would go before `me` if nothing else came: its line, and any interactive. */
	ahead(me: Waiter): number {
		const own = this.lines[me.workClass].ahead(me);
		return me.workClass === 'bulk' ? own + this.lines.interactive.length : own;
	}

	/** Whose turn it is. */
	front(): Waiter | undefined {
		const interactive = this.lines.interactive.front();
		const bulk = this.lines.bulk.front();
		if (!interactive || !bulk) return interactive ?? bulk;
		return this.interactiveRun >= PACING.bulkShareEvery - 1 ? bulk : interactive;
	}

	isFront(me: Waiter): boolean {
		return this.front() === me;
	}

	/**
	 * `me` leaves its line: `served` when it took its turn (counted for bulk's share, and its
	 * execution's next request goes to the back of the rotation), else it gave up. Whoever's turn it
	 * is now is woken.
	 */
	leave(me: Waiter, served: boolean): void {
		this.lines[me.workClass].leave(me, served);
		if (served) {
			const bulkWaited = me.workClass === 'interactive' && this.lines.bulk.length > 0;
			this.interactiveRun = bulkWaited ? this.interactiveRun + 1 : 0;
		}
		this.front()?.wake?.();
	}

	/** Resolves when it is `me`'s turn; rejects when its execution is cancelled. */
	async turn(ctx: PlatformContext, me: Waiter): Promise<void> {
		const signal = cancelSignal(ctx);
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				me.wake = undefined;
				reject(executionCanceled(ctx.getNode()));
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
