/**
 * One class's queue (paceQueue.ts): the executions waiting send in rotation, one request each, the
 * one served longest ago first; one execution's requests keep the order they were asked in. A new
 * execution joins at the back; one that comes back (a chat's run after its form) takes its place
 * by when it was last served, so it does not wait a whole round again for each of its requests. An
 * execution has an entry only while it has a request waiting; when it was last served is kept for
 * the RECENT executions served last, so the queue keeps nothing more of executions gone.
 */
import { BoundedMap } from '../boundedMap';
import type { ExecutionKey, WorkClass } from './workClass';

export interface Waiter {
	readonly workClass: WorkClass;
	/** Whose request it is: n8n's execution ID, or the context of a lookup (a place of its own). */
	readonly execution: ExecutionKey;
	wake?: () => void;
}

/** When the executions served last were served (sends counted), for those that come back. */
const RECENT = 256;

/** The requests one execution has waiting, oldest first. */
interface ExecutionEntry {
	readonly execution: ExecutionKey;
	readonly waiting: Waiter[];
	/** The send it was last served at (or joined at, if never): the lowest goes first. */
	servedAt: number;
}

export class ClassQueue {
	/** The executions in rotation: the first sends next, then goes to the back. */
	private readonly rotation: ExecutionEntry[] = [];
	private readonly byExecution = new Map<ExecutionKey, ExecutionEntry>();
	/** When executions with nothing waiting were last served, the newest RECENT, oldest first. */
	private readonly recent = new BoundedMap<ExecutionKey, number>(() => RECENT);
	private count = 0;
	/** Requests served so far. */
	private sendsServed = 0;

	get length(): number {
		return this.count;
	}

	get executions(): number {
		return this.byExecution.size;
	}

	/** Executions whose last send is remembered though nothing of theirs waits (at most RECENT). */
	get remembered(): number {
		return this.recent.size;
	}

	/** `first`: a retry or a lookup, which goes before everything in the queue. */
	join(me: Waiter, first: boolean): void {
		let entry = this.byExecution.get(me.execution);
		if (entry && !first) {
			entry.waiting.push(me);
			this.count++;
			return;
		}
		if (entry) this.rotation.splice(this.rotation.indexOf(entry), 1);
		else {
			const servedAt = this.recent.get(me.execution) ?? this.sendsServed;
			this.recent.delete(me.execution);
			entry = { execution: me.execution, waiting: [], servedAt };
			this.byExecution.set(me.execution, entry);
		}
		if (first) {
			this.rotation.unshift(entry);
			entry.waiting.unshift(me);
		} else {
			// before the executions served since it was
			const at = this.rotation.findIndex((other) => other.servedAt > entry.servedAt);
			this.rotation.splice(at < 0 ? this.rotation.length : at, 0, entry);
			entry.waiting.push(me);
		}
		this.count++;
	}

	front(): Waiter | undefined {
		return this.rotation[0]?.waiting[0];
	}

	/** Requests that go before `me` if nothing else comes: one per round of each execution before it. */
	ahead(me: Waiter): number {
		const entry = this.byExecution.get(me.execution);
		const place = entry ? entry.waiting.indexOf(me) : -1;
		if (!entry || place < 0) return 0;
		const mine = this.rotation.indexOf(entry);
		let ahead = place;
		this.rotation.forEach((other, index) => {
			if (other !== entry) ahead += Math.min(other.waiting.length, place + (index < mine ? 1 : 0));
		});
		return ahead;
	}

	/** `served`: it was sent, and its execution's next request waits for one round of the others. */
	leave(me: Waiter, served: boolean): void {
		const entry = this.byExecution.get(me.execution);
		const index = entry ? entry.waiting.indexOf(me) : -1;
		if (!entry || index < 0) return;
		entry.waiting.splice(index, 1);
		this.count--;
		this.rotation.splice(this.rotation.indexOf(entry), 1);
		if (served) entry.servedAt = ++this.sendsServed;
		if (entry.waiting.length > 0) {
			// served: to the back; else its place stays by when it was last served
			const at = this.rotation.findIndex((other) => other.servedAt > entry.servedAt);
			this.rotation.splice(at < 0 ? this.rotation.length : at, 0, entry);
			return;
		}
		this.byExecution.delete(me.execution);
		// an execution's ID may come back; a lookup's context does not
		if (typeof me.execution === 'string') this.recent.set(me.execution, entry.servedAt);
	}
}
