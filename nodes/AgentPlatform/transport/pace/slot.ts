/** A request's place in the pace once it may be sent. */
export interface PaceSlot {
	/** Sequence number of the send. */
	readonly seq: number;
	readonly sentAt: number;
}

/** Keeps the newest `keep` times (oldest first). */
export function remember(times: number[], at: number, keep: number): void {
	times.push(at);
	if (times.length > keep) times.splice(0, times.length - keep);
}
