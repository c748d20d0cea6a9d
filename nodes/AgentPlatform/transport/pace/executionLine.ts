/**
 * One class's line (turnQueue.ts): the executions waiting take turns, one request each, in the
 * order they came; one execution's requests keep the order they were asked in. An execution has an
 * entry only while it has a request waiting, so the line holds nothing of executions gone.
 */
import type { WorkClass } from './workClass';

export interface Waiter {
	readonly workClass: WorkClass;
	/** Whose request it is: n8n's execution ID, or the context of a lookup (its own turns). */
	readonly execution: unknown;
	wake?: () => void;
}

/** The requests one execution has waiting, oldest first. */
interface Turns {
	readonly execution: unknown;
	readonly waiting: Waiter[];
}

export class ExecutionLine {
	/** The executions in turn order: the first sends next, then goes to the back. */
	private readonly rotation: Turns[] = [];
	private readonly byExecution = new Map<unknown, Turns>();
	private count = 0;

	get length(): number {
		return this.count;
	}

	get executions(): number {
		return this.byExecution.size;
	}

	/** `first`: a retry or a lookup, which goes before everything in the line. */
	join(me: Waiter, first: boolean): void {
		let turns = this.byExecution.get(me.execution);
		if (!turns) {
			turns = { execution: me.execution, waiting: [] };
			this.byExecution.set(me.execution, turns);
		} else if (first) this.rotation.splice(this.rotation.indexOf(turns), 1);
		else {
			turns.waiting.push(me);
			this.count++;
			return;
		}
		if (first) {
			this.rotation.unshift(turns);
			turns.waiting.unshift(me);
		} else {
			this.rotation.push(turns);
			turns.waiting.push(me);
		}
		this.count++;
	}

	front(): Waiter | undefined {
		return this.rotation[0]?.waiting[0];
	}

	/** Requests that go before `me` if nothing else comes: one per turn of each execution before it. */
	ahead(me: Waiter): number {
		const turns = this.byExecution.get(me.execution);
		const place = turns ? turns.waiting.indexOf(me) : -1;
		if (!turns || place < 0) return 0;
		const mine = this.rotation.indexOf(turns);
		let ahead = place;
		this.rotation.forEach((other, index) => {
			if (other !== turns) ahead += Math.min(other.waiting.length, place + (index < mine ? 1 : 0));
		});
		return ahead;
	}

	/** `served`: it took its turn, and its execution's next request waits for the others' turns. */
	leave(me: Waiter, served: boolean): void {
		const turns = this.byExecution.get(me.execution);
		const index = turns ? turns.waiting.indexOf(me) : -1;
		if (!turns || index < 0) return;
		turns.waiting.splice(index, 1);
		this.count--;
		const at = this.rotation.indexOf(turns);
		if (turns.waiting.length === 0) {
			this.rotation.splice(at, 1);
			this.byExecution.delete(me.execution);
		} else if (served && at === 0) this.rotation.push(...this.rotation.splice(0, 1));
	}
}
