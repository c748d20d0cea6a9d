/**
 * One class's line (turnQueue.ts): the executions waiting take turns, one request each, the one
 * served longest ago first; one execution's requests keep the order they were asked in. A new
 * execution joins at the back; one that comes back (a chat's run after its form) takes its place
 * by when it was last served, so it does not wait a whole round again for each of its requests. An
 * execution has an entry only while it has a request waiting; when it was last served is kept for
 * the RECENT executions served last, so the line holds nothing more of executions gone.
 */
import { BoundedMap } from '../boundedMap';
import type { ExecutionKey, WorkClass } from './workClass';

export interface Waiter {
	readonly workClass: WorkClass;
	/** Whose request it is: n8n's execution ID, or the context of a lookup (its own turns). */
	readonly execution: ExecutionKey;
	wake?: () => void;
}

/** When the executions served last were served (turns counted), for those that come back. */
const RECENT = 256;

/** The requests one execution has waiting, oldest first. */
interface Turns {
	readonly execution: ExecutionKey;
	readonly waiting: Waiter[];
	/** The turn it was last served at (or joined at, if never): the lowest goes first. */
	servedAt: number;
}

export class ExecutionLine {
	/** The executions in turn order: the first sends next, then goes to the back. */
	private readonly rotation: Turns[] = [];
	private readonly byExecution = new Map<ExecutionKey, Turns>();
	/** When executions with nothing waiting were last served, the newest RECENT, oldest first. */
	private readonly recent = new BoundedMap<ExecutionKey, number>(() => RECENT);
	private count = 0;
	/** Turns served so far. */
	private turnsServed = 0;

	get length(): number {
		return this.count;
	}

	get executions(): number {
		return this.byExecution.size;
	}

	/** Executions whose last turn is remembered though nothing of theirs waits (at most RECENT). */
	get remembered(): number {
		return this.recent.size;
	}

	/** `first`: a retry or a lookup, which goes before everything in the line. */
	join(me: Waiter, first: boolean): void {
		let turns = this.byExecution.get(me.execution);
		if (turns && !first) {
			turns.waiting.push(me);
			this.count++;
			return;
		}
		if (turns) this.rotation.splice(this.rotation.indexOf(turns), 1);
		else {
			const servedAt = this.recent.get(me.execution) ?? this.turnsServed;
			this.recent.delete(me.execution);
			turns = { execution: me.execution, waiting: [], servedAt };
			this.byExecution.set(me.execution, turns);
		}
		if (first) {
			this.rotation.unshift(turns);
			turns.waiting.unshift(me);
		} else {
			// before the executions served since it was
			const at = this.rotation.findIndex((other) => other.servedAt > turns.servedAt);
			this.rotation.splice(at < 0 ? this.rotation.length : at, 0, turns);
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
		this.rotation.splice(this.rotation.indexOf(turns), 1);
		if (served) turns.servedAt = ++this.turnsServed;
		if (turns.waiting.length > 0) {
			// served: to the back; else its place stays by when it was last served
			const at = this.rotation.findIndex((other) => other.servedAt > turns.servedAt);
			this.rotation.splice(at < 0 ? this.rotation.length : at, 0, turns);
			return;
		}
		this.byExecution.delete(me.execution);
		// an execution's ID may come back; a lookup's context does not
		if (typeof me.execution === 'string') this.recent.set(me.execution, turns.servedAt);
	}
}
