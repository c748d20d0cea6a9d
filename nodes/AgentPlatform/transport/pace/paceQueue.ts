/**
 * Who sends next: two queues of waiting requests, one per class of work (workClass.ts). The next
 * send goes to interactive work (a person is waiting on it), except that bulk work keeps a share:
 * after PACING.bulkShareEvery − 1 interactive sends in a row while bulk waited, the next send is
 * bulk's, so a busy chat cannot stop a nightly job. Within a class's queue, the executions waiting
 * send in rotation, one request each (classQueue.ts), so that a chat waits about one request per
 * other execution waiting, not for another execution's whole paging. A request refused with 429,
 * and an editor lookup, go first. Only the request at the front waits for the pace; the others
 * wait until the request leaving wakes the new front, or for their execution's cancel signal.
 */
import { cancelSignal, executionCanceled } from '../cancellation';
import type { PlatformContext } from '../types';
import { ClassQueue, type Waiter } from './classQueue';
import { PACING } from './settings';
import type { ExecutionKey, WorkClass } from './workClass';

export type { Waiter } from './classQueue';

export class PaceQueue {
	private readonly queues: Record<WorkClass, ClassQueue> = {
		interactive: new ClassQueue(),
		bulk: new ClassQueue(),
	};
	/** Requests of interactive work sent in a row while bulk work waited. */
	private interactiveRun = 0;

	get length(): number {
		return this.queues.interactive.length + this.queues.bulk.length;
	}

	/** Executions with requests waiting (each has an entry while it waits, none after). */
	get executions(): number {
		return this.queues.interactive.executions + this.queues.bulk.executions;
	}

	/** A new waiter of `execution`: first of all in its class's queue, or last of its execution's. */
	join(workClass: WorkClass, execution: ExecutionKey, first: boolean): Waiter {
		const me: Waiter = { workClass, execution };
		this.queues[workClass].join(me, first);
		return me;
	}

	/** How many requests would go before `me` if nothing else came: its queue's, and any interactive. */
	ahead(me: Waiter): number {
		const own = this.queues[me.workClass].ahead(me);
		return me.workClass === 'bulk' ? own + this.queues.interactive.length : own;
	}

	/** The request that sends next. */
	front(): Waiter | undefined {
		const interactive = this.queues.interactive.front();
		const bulk = this.queues.bulk.front();
		if (!interactive || !bulk) return interactive ?? bulk;
		return this.interactiveRun >= PACING.bulkShareEvery - 1 ? bulk : interactive;
	}

	isFront(me: Waiter): boolean {
		return this.front() === me;
	}

	/**
	 * `me` leaves its queue: `served` when it was sent (counted for bulk's share, and its
	 * execution's next request goes to the back of the rotation), else it gave up. The request at
	 * the front now is woken.
	 */
	leave(me: Waiter, served: boolean): void {
		this.queues[me.workClass].leave(me, served);
		if (served) {
			const bulkWaited = me.workClass === 'interactive' && this.queues.bulk.length > 0;
			this.interactiveRun = bulkWaited ? this.interactiveRun + 1 : 0;
		}
		this.front()?.wake?.();
	}

	/** Resolves when `me` is at the front; rejects when its execution is cancelled. */
	async untilFront(ctx: PlatformContext, me: Waiter): Promise<void> {
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
